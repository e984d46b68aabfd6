package io.sam3stream.parity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sam3stream.model.Sam3Model;
import io.sam3stream.model.neck.NeckLevels;
import io.sam3stream.model.nn.ComputeOptions;
import io.sam3stream.testing.TinyGolden;
import io.sam3stream.weights.CheckpointLoader;
import io.sam3stream.weights.WeightSource;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every stage of the tiny golden set matches upstream with the optimisations off (the benchmark's control) and with
 * each one on alone; {@link TinyGoldenParityTest} covers all of them on, as the engine serves.
 */
class ControlParityTest {

    static Stream<ComputeOptions> optionSets() {
        return Stream.of(ComputeOptions.PLAIN,
                new ComputeOptions(true, false, false, false),
                new ComputeOptions(false, true, false, false),
                new ComputeOptions(false, false, true, false),
                new ComputeOptions(false, false, false, true));
    }

    @ParameterizedTest
    @MethodSource("optionSets")
    void everyStageMatchesUpstream(ComputeOptions options) {
        try (GoldenFolder folder = GoldenFolder.open(TinyGolden.dir());
                WeightSource weights = CheckpointLoader.open(TinyGolden.dir().resolve("sam3-tiny.pt"));
                Sam3Model model = Sam3Model.load(weights, folder.config(), NeckLevels.ALL);
                ComputeOptions.Scope scope = options.activate()) {
            StageRecorder recorder = new StageRecorder(folder.outputs().names());
            ParityRun.run(model, folder, recorder);
            ParityReport report = ParityCheck.compare(folder.outputs(), recorder.stages());

            assertEquals(folder.outputs().names().size(), report.verdicts().size(),
                    "not implemented: " + report.notImplemented());
            assertTrue(report.passed(), report.failures().stream()
                    .map(StageVerdict::reportLine).collect(Collectors.joining("\n")));
        }
    }
}
