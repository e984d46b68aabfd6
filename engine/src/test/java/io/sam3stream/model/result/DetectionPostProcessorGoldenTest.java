package io.sam3stream.model.result;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import ai.djl.ndarray.NDManager;
import io.sam3stream.model.heads.GroundingOutput;
import io.sam3stream.testing.GoldenStageCheck;
import io.sam3stream.testing.TinyGolden;
import java.util.stream.IntStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Post-processing of upstream's own raw outputs, so that only this package is under test. */
class DetectionPostProcessorGoldenTest {

    /** The golden image is 200 × 150 (W × H). */
    private static final ImageSize IMAGE = new ImageSize(200, 150);

    @ParameterizedTest
    @ValueSource(strings = {"p0", "p1", "p2", "b0"})
    void scoresKeepVectorAndPixelBoxesMatchUpstreamAtThresholdHalf(String goldenCase) {
        try (NDManager m = NDManager.newBaseManager(); GroundingOutput out = goldenOutput(m, goldenCase)) {
            GoldenStageCheck check = new GoldenStageCheck(goldenCase);

            new DetectionPostProcessor(0.5f).process(out, 0, IMAGE, check);

            check.assertMatched("post.scores_all", "post_t050.keep", "post_t050.scores", "post_t050.boxes_xyxy_px");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"p0", "p1", "p2", "b0"})
    void keptInstancesComeInQueryOrderWithTheirOwnMaskLogits(String goldenCase) {
        try (NDManager m = NDManager.newBaseManager(); GroundingOutput out = goldenOutput(m, goldenCase)) {
            PromptDetections detections = new DetectionPostProcessor(0.5f).process(out, IMAGE).get(0);

            boolean[] keep = TinyGolden.outputs().get(goldenCase + ".post_t050.keep").toBooleans();
            int[] kept = IntStream.range(0, keep.length).filter(q -> keep[q]).toArray();
            assertArrayEquals(kept, detections.instances().stream().mapToInt(Instance::queryIndex).toArray());
            for (Instance instance : detections.instances()) {
                MaskLogits mask = instance.maskLogits();
                assertEquals(48, mask.height());
                assertEquals(48, mask.width());
                assertArrayEquals(out.predMasks().get(0, instance.queryIndex()).toFloatArray(), mask.toArray());
            }
            float presenceLogit = TinyGolden.outputs().get(goldenCase + ".out.presence_logit").toFloats()[0];
            assertEquals(1 / (1 + Math.exp(-presenceLogit)), detections.presence(), 1e-6);
        }
    }

    private static GroundingOutput goldenOutput(NDManager m, String goldenCase) {
        return new GroundingOutput(TinyGolden.output(m, goldenCase + ".out.pred_logits"),
                TinyGolden.output(m, goldenCase + ".out.pred_boxes_cxcywh"),
                TinyGolden.output(m, goldenCase + ".out.presence_logit"),
                TinyGolden.output(m, goldenCase + ".seg.pred_masks"));
    }
}
