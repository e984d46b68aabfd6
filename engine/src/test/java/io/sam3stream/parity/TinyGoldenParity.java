package io.sam3stream.parity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sam3stream.model.Sam3Model;
import io.sam3stream.model.neck.NeckLevels;
import io.sam3stream.model.nn.ComputeOptions;
import io.sam3stream.model.nn.Precision;
import io.sam3stream.testing.TinyGolden;
import io.sam3stream.weights.CheckpointLoader;
import io.sam3stream.weights.WeightSource;
import java.util.stream.Collectors;

/** The tiny golden set's parity assertion, shared by the tests that run it under different settings. */
final class TinyGoldenParity {

    private TinyGoldenParity() {}

    /**
     * Loads the tiny model from {@code checkpoint} (a file of the golden folder), runs every case with
     * {@code options} in force and asserts that every stage upstream recorded is produced and matches.
     */
    static void assertEveryStageMatches(String checkpoint, ComputeOptions options) {
        assertEveryStageMatches(checkpoint, options, Precision.FP32);
    }

    /**
     * As {@link #assertEveryStageMatches(String, ComputeOptions)}, the model computing in {@code precision} and
     * held to that precision's {@link ParityBounds}.
     *
     * @return the report, for assertions of the caller's own
     */
    static ParityReport assertEveryStageMatches(String checkpoint, ComputeOptions options, Precision precision) {
        try (GoldenFolder folder = GoldenFolder.open(TinyGolden.dir());
                WeightSource weights = CheckpointLoader.open(TinyGolden.dir().resolve(checkpoint));
                Sam3Model model = Sam3Model.load(weights, folder.config(), NeckLevels.ALL, precision);
                ComputeOptions.Scope scope = options.activate()) {
            StageRecorder recorder = new StageRecorder(folder.outputs().names());
            ParityRun.run(model, folder, recorder);
            ParityReport report = ParityCheck.compare(folder.outputs(), recorder.stages(),
                    ParityBounds.of(precision));

            assertEquals(folder.outputs().names().size(), report.verdicts().size(),
                    "not implemented: " + report.notImplemented());
            assertTrue(report.passed(), report.failures().stream()
                    .map(StageVerdict::reportLine).collect(Collectors.joining("\n")));
            return report;
        }
    }
}
