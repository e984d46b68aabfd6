package io.sam3stream.deploy;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What tt-model-manager accepts in an authored container manifest, schema "5.1": the pydantic models of
 * {@code tt_kernel.container_manifest} forbid unknown keys, {@code validate_semantics} checks the values below, and
 * the http-server launcher takes its {@code runtime} keys from the annotated {@code examples/container-example.yaml}.
 * The image facts at the end come from tt-model-manager's container Dockerfile and {@code container.compose_run}.
 */
final class ContainerManifestSchema {

    static final String SCHEMA_VERSION = "5.1";

    static final Set<String> TOP_LEVEL = Set.of("schema", "repo", "name", "weights", "auxiliary_weights", "kind",
            "arch", "source", "image", "runtime", "serve", "serve_profiles", "default_profile", "card", "verify");
    /** Fields without a default ({@code schema} has one, but a manifest that omits it is not reviewable). */
    static final Set<String> REQUIRED_TOP_LEVEL = Set.of("schema", "repo", "name", "weights", "arch", "source");

    static final Set<String> SOURCE = Set.of("tt_metal", "code", "extra_code", "ubuntu", "python");
    static final Set<String> REQUIRED_SOURCE = Set.of("tt_metal", "code", "ubuntu", "python");
    static final Set<String> GIT_SOURCE = Set.of("repo", "ref", "sha");
    static final Set<String> EXTRA_CODE = Set.of("root", "paths");
    static final Set<String> WEIGHTS = Set.of("repo", "revision", "allow_patterns", "ignore_patterns");
    static final Set<String> HTTP_SERVER_RUNTIME = Set.of("command", "ready_line", "packages", "lock");
    static final Set<String> SERVE = Set.of("port", "hardware", "mesh_device", "max_num_seqs", "block_size",
            "max_model_len", "capabilities", "additional_config", "env", "args", "server_timeout");
    static final Set<String> CARD = Set.of("description", "quickstart");

    static final Set<String> KINDS = Set.of("vllm-plugin", "vllm-fork", "tt-dit-server", "http-server");
    static final Set<String> ARCHES = Set.of("blackhole", "wormhole_b0");

    /** {@code name} becomes a cache folder and a container name. */
    static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9._-]*");

    /** Chips opened by each entry of the plugin's closed MESH_DEVICE table. */
    static final Map<String, Integer> MESH_DEVICE_CHIPS = Map.ofEntries(Map.entry("N150", 1), Map.entry("P100", 1),
            Map.entry("P150", 1), Map.entry("P150x2", 2), Map.entry("N300", 2), Map.entry("P300", 2),
            Map.entry("N150x4", 4), Map.entry("P150x4", 4), Map.entry("T3K", 8), Map.entry("P150x8", 8),
            Map.entry("P300x2", 4), Map.entry("QB2", 4), Map.entry("TG", 32), Map.entry("BH-Galaxy", 32));

    private static final Map<String, Integer> BOARD_CHIPS = Map.of("p100", 1, "p150", 1, "n150", 1, "e150", 1,
            "p300", 2, "n300", 2);
    private static final Pattern HARDWARE = Pattern.compile("(?<base>[a-z]\\d+[a-z]?)(?:x(?<mult>\\d+))?");

    /** Where the image puts the staged code allowlist ({@code COPY code/ /opt/tt-metal/}). */
    static final String IMAGE_CODE_ROOT = "/opt/tt-metal/";

    /** Variables the image or the launcher set and a manifest must not override. */
    static final Set<String> SET_BY_TT_MODEL = Set.of("HF_HOME", "HF_HUB_CACHE", "MESH_DEVICE", "TT_METAL_CACHE",
            "TT_METAL_RUNTIME_ROOT");

    private ContainerManifestSchema() {}

    /** Chips a {@code hardware} board label implies; a revision letter ({@code p150a}) does not change it. */
    static Optional<Integer> chipCount(String hardware) {
        Matcher m = HARDWARE.matcher(hardware);
        if (!m.matches()) {
            return Optional.empty();
        }
        String base = m.group("base");
        Integer perBoard = BOARD_CHIPS.getOrDefault(base, BOARD_CHIPS.get(base.replaceFirst("[a-z]$", "")));
        int boards = m.group("mult") == null ? 1 : Integer.parseInt(m.group("mult"));
        return Optional.ofNullable(perBoard).map(chips -> chips * boards);
    }
}
