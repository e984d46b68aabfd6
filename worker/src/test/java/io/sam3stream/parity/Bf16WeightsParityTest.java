package io.sam3stream.parity;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sam3stream.model.Sam3Model;
import io.sam3stream.model.neck.NeckLevels;
import io.sam3stream.model.nn.WeightPrecision;
import io.sam3stream.testing.TinyGolden;
import io.sam3stream.weights.CheckpointLoader;
import io.sam3stream.weights.RawTensor;
import io.sam3stream.weights.WeightSource;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * With {@code SAM3_DTYPE=bf16} (linear layers' matrices rounded to bfloat16) every float stage of the tiny golden
 * set stays within 1e-2 × (1 + max|ref|) of upstream's float32 outputs, and every case keeps exactly the instances
 * upstream keeps.
 */
class Bf16WeightsParityTest {

    private static final double BF16_RELATIVE_TOLERANCE = 1e-2;

    @Test
    void stagesStayWithinOnePercentAndKeptInstancesAreIdentical() {
        try (GoldenFolder folder = GoldenFolder.open(TinyGolden.dir());
                WeightSource weights = CheckpointLoader.open(TinyGolden.dir().resolve("sam3-tiny.pt"));
                Sam3Model model = Sam3Model.load(weights, folder.config(), NeckLevels.ALL, WeightPrecision.BF16)) {
            StageRecorder recorder = new StageRecorder(folder.outputs().names());
            ParityRun.run(model, folder, recorder);

            List<String> failures = new ArrayList<>();
            int keptChecked = 0;
            boolean roundingVisible = false;
            for (String stage : folder.outputs().names()) {
                RecordedStage actual = recorder.stages().get(stage);
                RawTensor ref = folder.outputs().get(stage);
                StageComparison c;
                if (stage.endsWith(".keep")) {
                    c = StageComparison.absolute(stage, actual.shape(), actual.values(), ref.shape(), ref.toFloats(),
                            0);
                    keptChecked++;
                } else if (ref.dtype().isFloating()) {
                    float[] reference = ref.toFloats();
                    c = StageComparison.absolute(stage, actual.shape(), actual.values(), ref.shape(), reference,
                            BF16_RELATIVE_TOLERANCE * (1 + maxAbs(reference)));
                    roundingVisible |= c.maxAbsDiff() > StageComparison.RELATIVE_TOLERANCE * (1 + maxAbs(reference));
                } else {
                    continue; // mask areas and boxes follow from the mask probabilities, compared as float stages
                }
                if (!c.passed()) {
                    failures.add(c.reportLine());
                }
            }
            assertTrue(failures.isEmpty(), String.join("\n", failures));
            long cases = folder.outputs().names().stream().filter(n -> n.endsWith(".post.scores_all")).count();
            assertTrue(cases > 0 && keptChecked == cases, keptChecked + " kept-instance stages for " + cases + " cases");
            assertTrue(roundingVisible, "no stage differs beyond float32 rounding: the weights were not narrowed");
        }
    }

    private static double maxAbs(float[] values) {
        double max = 0;
        for (float v : values) {
            max = Math.max(max, Math.abs(v));
        }
        return max;
    }
}
