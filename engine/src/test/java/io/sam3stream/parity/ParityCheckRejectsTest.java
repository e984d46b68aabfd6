package io.sam3stream.parity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sam3stream.testing.TinyGolden;
import io.sam3stream.weights.RawTensor;
import io.sam3stream.weights.SafetensorsFile;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The golden comparison can fail: upstream's own outputs (with the text's padding rows zero, as the engine
 * computes them) pass against themselves, and a single value of one stage
 * moved by a little more than the fp32 bound fails that stage, and only that stage. Without this, a comparator that
 * passed everything would make every golden test green.
 */
class ParityCheckRejectsTest {

    @ParameterizedTest
    @ValueSource(strings = {"vit.out", "b0.decoder.hs", "b0.seg.pred_masks", "b0.out.pred_logits"})
    void aPerturbedStageFailsAndEveryOtherPasses(String perturbed) {
        SafetensorsFile reference = TinyGolden.outputs();
        assertTrue(reference.names().contains(perturbed), perturbed + " is a golden stage");
        Map<String, RecordedStage> recorded = new HashMap<>();
        for (String name : reference.names()) {
            RawTensor t = reference.get(name);
            recorded.put(name, new RecordedStage(t.shape(),
                    PaddingPositions.asComputed(name, t.shape(), t.toFloats(), reference::get)));
        }
        ParityReport same = ParityCheck.compare(reference, recorded, ParityBounds.FP32);
        assertTrue(same.passed(), "upstream against itself: " + failures(same));

        float[] values = recorded.get(perturbed).values().clone();
        float scale = 1;
        for (float v : values) {
            scale = Math.max(scale, Math.abs(v));
        }
        values[values.length / 2] += 2 * ParityBounds.FP32.relative() * scale;
        recorded.put(perturbed, new RecordedStage(recorded.get(perturbed).shape(), values));
        ParityReport moved = ParityCheck.compare(reference, recorded, ParityBounds.FP32);

        assertFalse(moved.passed());
        assertEquals(List.of(perturbed), moved.failures().stream().map(StageVerdict::stage).toList());
    }

    private static String failures(ParityReport report) {
        return report.failures().stream().map(StageVerdict::reportLine).collect(Collectors.joining("\n"));
    }
}
