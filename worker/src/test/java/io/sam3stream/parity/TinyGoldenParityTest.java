package io.sam3stream.parity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sam3stream.model.Sam3Model;
import io.sam3stream.model.neck.NeckLevels;
import io.sam3stream.testing.TinyGolden;
import io.sam3stream.weights.CheckpointLoader;
import io.sam3stream.weights.WeightSource;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The whole model reproduces every stage of upstream's tiny golden set, from either checkpoint layout. */
class TinyGoldenParityTest {

    @ParameterizedTest
    @ValueSource(strings = {"sam3-tiny.pt", "sam3-tiny-hf.safetensors"})
    void everyStageOfEveryCaseMatchesUpstream(String checkpoint) {
        try (GoldenFolder folder = GoldenFolder.open(TinyGolden.dir());
                WeightSource weights = CheckpointLoader.open(TinyGolden.dir().resolve(checkpoint));
                Sam3Model model = Sam3Model.load(weights, folder.config(), NeckLevels.ALL)) {
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
