package io.sam3stream.model.result;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import io.sam3stream.model.heads.GroundingOutput;
import java.util.List;
import org.junit.jupiter.api.Test;

class DetectionPostProcessorTest {

    /** sigmoid(100) is exactly 1 in float32, so these scores are sigmoid(logit): 0.5 exactly, above and below. */
    private static final float[] LOGITS = {0f, 0.1f, -0.1f};
    private static final float CERTAIN_PRESENCE = 100f;

    @Test
    void keepsOnlyScoresStrictlyAboveTheThreshold() {
        try (NDManager m = NDManager.newBaseManager(); GroundingOutput out = output(m, LOGITS, CERTAIN_PRESENCE,
                centredBoxes(3))) {
            List<Instance> kept = new DetectionPostProcessor(0.5f).process(out, new ImageSize(10, 10)).get(0)
                    .instances();

            assertEquals(1, kept.size());
            assertEquals(1, kept.get(0).queryIndex());
            assertEquals((float) (1 / (1 + Math.exp(-0.1))), kept.get(0).score(), 1e-7f);
        }
    }

    @Test
    void scoreIsClassProbabilityTimesPresenceProbability() {
        try (NDManager m = NDManager.newBaseManager(); GroundingOutput out = output(m, new float[] {2f}, 1f,
                centredBoxes(1))) {
            PromptDetections result = new DetectionPostProcessor(0f).process(out, new ImageSize(10, 10)).get(0);

            double presence = 1 / (1 + Math.exp(-1));
            assertEquals(presence, result.presence(), 1e-6);
            assertEquals(presence / (1 + Math.exp(-2)), result.instances().get(0).score(), 1e-6);
        }
    }

    /** A 200 × 100 image: x scales by 200 and y by 100; the second box runs past the right edge and stays so. */
    @Test
    void boxesBecomeCornersInOriginalPixelsWithoutClipping() {
        float[] boxes = {0.5f, 0.5f, 0.2f, 0.4f, 0.95f, 0.5f, 0.2f, 0.2f};
        try (NDManager m = NDManager.newBaseManager(); GroundingOutput out = output(m, new float[] {5f, 5f},
                CERTAIN_PRESENCE, boxes)) {
            List<Instance> kept = new DetectionPostProcessor(0.5f).process(out, new ImageSize(200, 100)).get(0)
                    .instances();

            assertBox(new float[] {80f, 30f, 120f, 70f}, kept.get(0).box());
            assertBox(new float[] {170f, 40f, 210f, 60f}, kept.get(1).box());
        }
    }

    @Test
    void everyPromptOfTheBatchIsProcessedInBatchOrder() {
        try (NDManager m = NDManager.newBaseManager();
                GroundingOutput out = new GroundingOutput(
                        m.create(new float[] {5f, -5f, -5f, 5f}, new Shape(2, 2, 1)),
                        m.create(centredBoxes(4), new Shape(2, 2, 4)),
                        m.create(new float[] {CERTAIN_PRESENCE, -1f}, new Shape(2, 1)),
                        m.zeros(new Shape(2, 2, 2, 2)))) {
            List<PromptDetections> results = new DetectionPostProcessor(0.2f).process(out, new ImageSize(4, 4));

            assertEquals(2, results.size());
            assertEquals(1, results.get(0).instances().size());
            assertEquals(0, results.get(0).instances().get(0).queryIndex());
            assertEquals(1, results.get(1).instances().size());
            assertEquals(1, results.get(1).instances().get(0).queryIndex());
            assertEquals(1f / (1 + (float) Math.exp(1)), results.get(1).presence(), 1e-6f);
        }
    }

    @Test
    void rejectsThresholdsOutsideZeroToOne() {
        assertThrows(IllegalArgumentException.class, () -> new DetectionPostProcessor(-0.1f));
        assertThrows(IllegalArgumentException.class, () -> new DetectionPostProcessor(1.5f));
        assertThrows(IllegalArgumentException.class, () -> new DetectionPostProcessor(Float.NaN));
    }

    private static GroundingOutput output(NDManager m, float[] logits, float presenceLogit, float[] boxes) {
        int q = logits.length;
        float[] masks = new float[q * 4];
        for (int i = 0; i < masks.length; i++) {
            masks[i] = i;
        }
        return new GroundingOutput(m.create(logits, new Shape(1, q, 1)), m.create(boxes, new Shape(1, q, 4)),
                m.create(new float[] {presenceLogit}, new Shape(1, 1)), m.create(masks, new Shape(1, q, 2, 2)));
    }

    private static float[] centredBoxes(int count) {
        float[] boxes = new float[4 * count];
        for (int i = 0; i < count; i++) {
            System.arraycopy(new float[] {0.5f, 0.5f, 0.5f, 0.5f}, 0, boxes, 4 * i, 4);
        }
        return boxes;
    }

    private static void assertBox(float[] expected, PixelBox box) {
        assertArrayEquals(expected, new float[] {box.x0(), box.y0(), box.x1(), box.y1()}, 1e-4f);
    }
}
