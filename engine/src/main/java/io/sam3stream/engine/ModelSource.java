package io.sam3stream.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sam3stream.config.Knob;
import io.sam3stream.config.Settings;
import io.sam3stream.model.config.Sam3Config;
import io.sam3stream.model.config.Sam3ConfigReader;
import io.sam3stream.weights.CheckpointLoader;
import io.sam3stream.weights.LocatedWeights;
import io.sam3stream.weights.WeightSource;
import io.sam3stream.weights.WeightsLocator;
import io.sam3stream.weights.procedural.ProceduralWeights;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * Where a model's weights and hyper-parameters come from, and how to name them in results and {@code /info}:
 * the configured Hugging Face weights at the pinned revision, an explicit checkpoint file, or the procedural
 * full-size weights.
 *
 * @param weights    the tensors (closed by whoever builds the model from them)
 * @param config     the hyper-parameters
 * @param repo       the weights repository, or the checkpoint's file name
 * @param revision   the weights revision, or "local" / "procedural"
 * @param checkpoint what was opened, for {@code /info}
 * @param folder     the folder holding the checkpoint (where a tokenizer vocabulary may lie), if any
 */
public record ModelSource(WeightSource weights, Sam3Config config, String repo, String revision, String checkpoint,
        Optional<Path> folder) {

    /** The weights {@code SAM3_WEIGHTS_DIR} or the Hugging Face cache holds at the pinned revision. */
    public static ModelSource configured(Settings settings) {
        Map<String, String> env = new java.util.HashMap<>();
        for (Knob k : new Knob[] {Knob.HF_MODEL, Knob.TT_WEIGHTS_REVISION, Knob.SAM3_WEIGHTS_DIR, Knob.HF_HUB_CACHE,
            Knob.HF_HOME}) {
            if (settings.isSet(k)) {
                env.put(k.name(), settings.get(k));
            }
        }
        LocatedWeights located = new WeightsLocator(env, Path.of(System.getProperty("user.home"))).locate();
        return new ModelSource(CheckpointLoader.open(located.checkpoint()), configOf(located.config()),
                settings.get(Knob.HF_MODEL), settings.get(Knob.TT_WEIGHTS_REVISION), located.checkpoint().toString(),
                Optional.ofNullable(located.checkpoint().getParent()));
    }

    /**
     * A checkpoint file ({@code .pt} or {@code .safetensors}, upstream or Hugging Face layout) with an optional
     * {@code config.json}; without one, a {@code config.json} beside the file is used, else the full-size preset.
     */
    public static ModelSource checkpoint(Path file, Optional<Path> configJson) {
        Path beside = file.toAbsolutePath().getParent().resolve("config.json");
        Optional<Path> config = configJson.or(() -> java.nio.file.Files.exists(beside)
                ? Optional.of(beside) : Optional.empty());
        return new ModelSource(CheckpointLoader.open(file), configOf(config), file.getFileName().toString(), "local",
                file.toAbsolutePath().toString(), Optional.ofNullable(file.toAbsolutePath().getParent()));
    }

    /**
     * The repository and revision of {@link #demo()}: what a worker serving it reports, and what heartbeat readers
     * look for (the contract's {@code DemoModel}, which the worker's tests hold to this value).
     */
    public static final String DEMO_NAME = "demo";

    /**
     * The demo model: {@link Sam3Config#demo()} with procedurally generated weights, so that the whole stack runs
     * on a machine without the gated checkpoint. Its answers are not meaningful.
     */
    public static ModelSource demo() {
        return new ModelSource(ProceduralWeights.demo(), Sam3Config.demo(), DEMO_NAME, DEMO_NAME,
                "demo model (small configuration, generated weights; answers are not meaningful)", Optional.empty());
    }

    /** True for {@link #demo()}. */
    public boolean isDemo() {
        return DEMO_NAME.equals(repo) && DEMO_NAME.equals(revision);
    }

    /** The full-size model with the deterministic procedural weights (no file). */
    public static ModelSource procedural() {
        return new ModelSource(ProceduralWeights.sam3Image(), Sam3Config.fullSize(), "procedural", "procedural",
                "procedural weights (SplitMix64 recipe)", Optional.empty());
    }

    /**
     * The hyper-parameters in a {@code config.json}: the golden layout (sections named after upstream's builder
     * functions) is read as such; any other file (the Hugging Face repository's own config) means the released
     * full-size model.
     */
    static Sam3Config configOf(Optional<Path> configJson) {
        if (configJson.isEmpty()) {
            return Sam3Config.fullSize();
        }
        JsonNode root;
        try {
            root = new ObjectMapper().readTree(configJson.get().toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + configJson.get(), e);
        }
        boolean goldenLayout = root.fieldNames().hasNext()
                && iterable(root.fieldNames()).anyMatch(n -> n.startsWith("_create_vit_backbone"));
        return goldenLayout ? Sam3ConfigReader.parse(root) : Sam3Config.fullSize();
    }

    private static java.util.stream.Stream<String> iterable(java.util.Iterator<String> it) {
        Iterable<String> i = () -> it;
        return java.util.stream.StreamSupport.stream(i.spliterator(), false);
    }
}
