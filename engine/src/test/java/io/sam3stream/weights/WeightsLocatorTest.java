package io.sam3stream.weights;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WeightsLocatorTest {

    private static final String COMMIT = "0123456789abcdef0123456789abcdef01234567";

    @TempDir
    Path home;

    private static Path touch(Path file) throws IOException {
        Files.createDirectories(file.getParent());
        return Files.writeString(file, "x");
    }

    private LocatedWeights locate(Map<String, String> environment) {
        return new WeightsLocator(environment, home).locate();
    }

    private String failure(Map<String, String> environment) {
        return assertThrows(CheckpointException.class, () -> locate(environment)).getMessage();
    }

    @Test
    void findsSam3PtAndConfigInTheWeightsDir() throws IOException {
        Path pt = touch(home.resolve("w/sam3.pt"));
        Path config = touch(home.resolve("w/config.json"));
        touch(home.resolve("w/model.safetensors"));
        LocatedWeights found = locate(Map.of("SAM3_WEIGHTS_DIR", home.resolve("w").toString()));
        assertEquals(pt, found.checkpoint());
        assertEquals(Optional.of(config), found.config());
    }

    @Test
    void fallsBackToModelSafetensorsInTheWeightsDir() throws IOException {
        Path safetensors = touch(home.resolve("w/model.safetensors"));
        LocatedWeights found = locate(Map.of("SAM3_WEIGHTS_DIR", "~/w"));
        assertEquals(safetensors, found.checkpoint());
        assertEquals(Optional.empty(), found.config());
    }

    @Test
    void anEmptyWeightsDirFailsWithoutSearchingTheCache() throws IOException {
        touch(home.resolve(".cache/huggingface/hub/models--facebook--sam3/snapshots/"
                + WeightsLocator.DEFAULT_REVISION + "/sam3.pt"));
        Path empty = Files.createDirectories(home.resolve("empty"));
        String message = failure(Map.of("SAM3_WEIGHTS_DIR", empty.toString()));
        assertTrue(message.contains(empty.resolve("sam3.pt").toString()), message);
        assertTrue(message.contains(empty.resolve("model.safetensors").toString()), message);
        assertTrue(message.contains("hf download facebook/sam3 sam3.pt config.json --revision "
                + WeightsLocator.DEFAULT_REVISION + " --local-dir " + empty), message);
    }

    @Test
    void resolvesARefThroughTheHubCache() throws IOException {
        Path repo = home.resolve("hub/models--facebook--sam3");
        Files.createDirectories(repo.resolve("refs"));
        Files.writeString(repo.resolve("refs/main"), COMMIT + "\n");
        Path pt = touch(repo.resolve("snapshots/" + COMMIT + "/sam3.pt"));
        LocatedWeights found = locate(Map.of("HF_HUB_CACHE", home.resolve("hub").toString(),
                "TT_WEIGHTS_REVISION", "main"));
        assertEquals(pt, found.checkpoint());
        assertTrue(found.origin().contains("facebook/sam3@" + COMMIT), found.origin());
    }

    @Test
    void usesThePinnedRevisionUnderHfHomeByDefault() throws IOException {
        Path pt = touch(home.resolve("hf/hub/models--facebook--sam3/snapshots/" + WeightsLocator.DEFAULT_REVISION
                + "/sam3.pt"));
        assertEquals(pt, locate(Map.of("HF_HOME", home.resolve("hf").toString())).checkpoint());
    }

    @Test
    void readsAnotherModelFromTheDefaultCache() throws IOException {
        Path safetensors = touch(home.resolve(".cache/huggingface/hub/models--someone--sam3-copy/snapshots/"
                + COMMIT + "/model.safetensors"));
        assertEquals(safetensors, locate(Map.of("HF_MODEL", "someone/sam3-copy", "TT_WEIGHTS_REVISION", COMMIT))
                .checkpoint());
    }

    @Test
    void notFoundListsEveryPlaceAndTheDownloadCommand() {
        String message = failure(Map.of("TT_WEIGHTS_REVISION", "main"));
        Path repo = home.resolve(".cache/huggingface/hub/models--facebook--sam3");
        assertTrue(message.contains(repo.resolve("refs/main").toString()), message);
        assertTrue(message.contains("hf download facebook/sam3 sam3.pt config.json --revision main"), message);

        message = failure(Map.of());
        Path snapshot = repo.resolve("snapshots/" + WeightsLocator.DEFAULT_REVISION);
        assertTrue(message.contains(snapshot.resolve("sam3.pt").toString()), message);
        assertTrue(message.contains(snapshot.resolve("model.safetensors").toString()), message);
        assertTrue(message.endsWith("hf download facebook/sam3 sam3.pt config.json --revision "
                + WeightsLocator.DEFAULT_REVISION), message);
    }
}
