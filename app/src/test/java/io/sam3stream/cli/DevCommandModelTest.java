package io.sam3stream.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sam3stream.config.Settings;
import io.sam3stream.engine.ModelSource;
import io.sam3stream.testing.TinyGolden;
import io.sam3stream.weights.CheckpointException;
import io.sam3stream.worker.ModelOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** What {@code ./sam3 dev} serves: the weights it finds, else (on a fresh machine) the demo model, loudly. */
class DevCommandModelTest {

    @TempDir
    Path emptyHome;

    private ModelOptions options(String... args) {
        DevCommand command = new DevCommand();
        new CommandLine(command).parseArgs(args);
        return command.modelOptions();
    }

    private Settings noWeights() {
        return Settings.from(Map.of("HF_HOME", emptyHome.toString()));
    }

    @Test
    void aMachineWithoutWeightsGetsTheDemoModelAndABannerSayingHowToFixIt() {
        List<String> lines = new ArrayList<>();
        ModelSource source = DevCommand.chooseModel(options(), noWeights(), lines::add);
        assertTrue(source.isDemo());
        String banner = String.join("\n", lines);
        assertTrue(banner.contains("DEMO MODEL") && banner.contains("NOT meaningful"), banner);
        assertTrue(banner.contains("hf download facebook/sam3") && banner.contains("SAM3_WEIGHTS_DIR"), banner);
        assertTrue(banner.contains(emptyHome.toString()), "says where it looked: " + banner);
    }

    @Test
    void weightsNamedOnTheCommandLineNeverFallBack() {
        Path missing = emptyHome.resolve("sam3.pt");
        assertThrows(CheckpointException.class,
                () -> DevCommand.chooseModel(options("--checkpoint", missing.toString()), noWeights(), line -> {}));
    }

    @Test
    void foundWeightsAreServedWithoutABanner() throws Exception {
        Path folder = Files.createDirectories(emptyHome.resolve("weights"));
        Files.copy(TinyGolden.dir().resolve("sam3-tiny.pt"), folder.resolve("sam3.pt"));
        Files.copy(TinyGolden.dir().resolve("config.json"), folder.resolve("config.json"));
        List<String> lines = new ArrayList<>();
        ModelSource source = DevCommand.chooseModel(options(),
                Settings.from(Map.of("SAM3_WEIGHTS_DIR", folder.toString())), lines::add);
        source.weights().close();
        assertFalse(source.isDemo());
        assertEquals(List.of(), lines);
    }

    @Test
    void demoIsTheDemoModelAndSaysSo() {
        List<String> lines = new ArrayList<>();
        assertTrue(DevCommand.chooseModel(options("--demo"), noWeights(), lines::add).isDemo());
        assertTrue(String.join("\n", lines).contains("--demo was given"));
    }
}
