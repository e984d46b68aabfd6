package io.sam3stream.weights;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Finds the SAM3 checkpoint on this machine as the reference server does, from the same environment variables.
 * It never downloads: when nothing is found, the error lists every place it looked and the {@code hf download}
 * command that fetches the pinned files.
 *
 * <ol>
 *   <li>{@code SAM3_WEIGHTS_DIR}, when set: {@code sam3.pt}, else {@code model.safetensors}, in that folder. An
 *       explicit folder is authoritative: when it holds neither file, nothing else is searched.
 *   <li>Otherwise the Hugging Face hub cache ({@code HF_HUB_CACHE}, else {@code HF_HOME/hub}, else
 *       {@code XDG_CACHE_HOME/huggingface/hub}, else {@code ~/.cache/huggingface/hub}), in the snapshot
 *       {@code models--<HF_MODEL, / as -->/snapshots/<commit>}, where the commit is {@code TT_WEIGHTS_REVISION}
 *       when that is a commit hash, else the hash that {@code refs/<TT_WEIGHTS_REVISION>} holds.
 * </ol>
 * A {@code config.json} beside the checkpoint is reported with it. {@code HF_MODEL} defaults to
 * {@value #DEFAULT_MODEL} and {@code TT_WEIGHTS_REVISION} to the commit the reference deployment pins,
 * {@value #DEFAULT_REVISION}.
 */
public final class WeightsLocator {

    public static final String DEFAULT_MODEL = "facebook/sam3";
    public static final String DEFAULT_REVISION = "3c879f39826c281e95690f02c7821c4de09afae7";

    private static final List<String> CHECKPOINT_FILES = List.of("sam3.pt", "model.safetensors");
    private static final String CONFIG_FILE = "config.json";
    private static final Pattern COMMIT_HASH = Pattern.compile("[0-9a-f]{40}");

    private final Map<String, String> environment;
    private final Path home;

    /**
     * @param environment the environment variables to read (the process environment in production)
     * @param home the user's home folder, for the default cache location and a leading {@code ~}
     */
    public WeightsLocator(Map<String, String> environment, Path home) {
        this.environment = Map.copyOf(environment);
        this.home = home;
    }

    /**
     * Finds the checkpoint.
     *
     * @throws CheckpointException naming every path tried and the command that fetches the files
     */
    public LocatedWeights locate() {
        List<String> searched = new ArrayList<>();
        String model = variable("HF_MODEL").orElse(DEFAULT_MODEL);
        String revision = variable("TT_WEIGHTS_REVISION").orElse(DEFAULT_REVISION);
        Optional<Path> weightsDir = variable("SAM3_WEIGHTS_DIR").map(this::path);
        if (weightsDir.isPresent()) {
            Path folder = weightsDir.get();
            return find(folder, "SAM3_WEIGHTS_DIR " + folder, searched)
                    .orElseThrow(() -> notFound(searched, model, revision, " --local-dir " + folder));
        }
        Path repo = hubCache().resolve("models--" + model.replace("/", "--"));
        return commit(repo, revision, searched)
                .flatMap(commit -> find(repo.resolve("snapshots").resolve(commit), model + "@" + commit, searched))
                .orElseThrow(() -> notFound(searched, model, revision, ""));
    }

    private Optional<LocatedWeights> find(Path folder, String origin, List<String> searched) {
        for (String name : CHECKPOINT_FILES) {
            Path checkpoint = folder.resolve(name);
            searched.add(checkpoint.toString());
            if (Files.isRegularFile(checkpoint)) {
                Path config = folder.resolve(CONFIG_FILE);
                return Optional.of(new LocatedWeights(checkpoint,
                        Files.isRegularFile(config) ? Optional.of(config) : Optional.empty(), origin));
            }
        }
        return Optional.empty();
    }

    /** The snapshot commit of a revision: the revision itself if it is a hash, else what its ref file holds. */
    private static Optional<String> commit(Path repo, String revision, List<String> searched) {
        if (COMMIT_HASH.matcher(revision).matches()) {
            return Optional.of(revision);
        }
        Path ref = repo.resolve("refs").resolve(revision);
        searched.add(ref + " (the commit of revision " + revision + ")");
        try {
            String commit = Files.readString(ref, StandardCharsets.UTF_8).trim();
            return COMMIT_HASH.matcher(commit).matches() ? Optional.of(commit) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** The hub cache folder, resolved as {@code huggingface_hub} does. */
    private Path hubCache() {
        Optional<Path> hubCache = variable("HF_HUB_CACHE").map(this::path);
        if (hubCache.isPresent()) {
            return hubCache.get();
        }
        Path hfHome = variable("HF_HOME").map(this::path).orElseGet(() -> variable("XDG_CACHE_HOME")
                .map(this::path).orElse(home.resolve(".cache")).resolve("huggingface"));
        return hfHome.resolve("hub");
    }

    private static CheckpointException notFound(List<String> searched, String model, String revision,
            String destination) {
        return new CheckpointException("no SAM3 checkpoint found; looked for:\n  " + String.join("\n  ", searched)
                + "\nNothing is downloaded automatically. Fetch the pinned files with:\n  hf download " + model
                + " " + CHECKPOINT_FILES.get(0) + " " + CONFIG_FILE + " --revision " + revision + destination);
    }

    /** A variable's value; empty when unset or blank. */
    private Optional<String> variable(String name) {
        return Optional.ofNullable(environment.get(name)).map(String::trim).filter(v -> !v.isEmpty());
    }

    /** A path from the environment, with a leading {@code ~} meaning the home folder. */
    private Path path(String value) {
        return value.equals("~") || value.startsWith("~/") ? home.resolve(value.substring(1).replaceFirst("^/", ""))
                : Path.of(value);
    }
}
