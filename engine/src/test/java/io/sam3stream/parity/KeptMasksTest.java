package io.sam3stream.parity;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sam3stream.model.result.ImageSize;
import io.sam3stream.model.result.Instance;
import io.sam3stream.model.result.MaskLogits;
import io.sam3stream.model.result.PixelBox;
import io.sam3stream.model.result.PromptDetections;
import java.util.List;
import org.junit.jupiter.api.Test;

class KeptMasksTest {

    /** Logits already at the 3 × 2 image size, so the upsampling is the identity. */
    private static final float[] TWO_PIXELS = {-2, 1, -3, 4, -1, -5};
    private static final float[] NO_PIXEL = {-1, -1, -1, -1, -1, -1};

    private static KeptMasks masks() {
        PixelBox box = new PixelBox(0, 0, 1, 1);
        return KeptMasks.of(new PromptDetections(0.9f, List.of(
                new Instance(4, 0.7f, box, new MaskLogits(2, 3, TWO_PIXELS)),
                new Instance(9, 0.6f, box, new MaskLogits(2, 3, NO_PIXEL)))), new ImageSize(3, 2));
    }

    @Test
    void summarisesEachMaskAsTheGoldenLayoutStoresIt() {
        KeptMasks masks = masks();

        assertArrayEquals(new long[] {2, 1, 2, 3}, masks.shape());
        assertArrayEquals(new float[] {2, 0}, masks.areas());
        assertArrayEquals(new float[] {0, 0, 1, 1, -1, -1, -1, -1}, masks.boundingBoxes());
        // sigmoid of -2, 1, -3, 4, -1, -5
        float[] sums = masks.probabilitySums();
        assertEquals(0.11920292 + 0.73105858 + 0.04742587 + 0.98201379 + 0.26894142 + 0.00669285, sums[0], 1e-6);
        assertEquals(6 * 0.26894142, sums[1], 1e-6);
    }

    @Test
    void binaryMasksAreTheProbabilitiesAboveOneHalf() {
        assertArrayEquals(new float[] {0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0}, masks().binary());
    }
}
