package io.sam3stream.model.decoder;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import org.junit.jupiter.api.Test;

class BoxGeometryTest {

    @Test
    void cxcywhToXyxySubtractsAndAddsHalfTheSize() {
        try (NDManager m = NDManager.newBaseManager()) {
            NDArray boxes = m.create(new float[] {0.5f, 0.5f, 0.2f, 0.4f, 0.9f, 0.1f, 0.4f, 0.4f}, new Shape(2, 4));
            assertArrayEquals(new float[] {0.4f, 0.3f, 0.6f, 0.7f, 0.7f, -0.1f, 1.1f, 0.3f},
                    Boxes.cxcywhToXyxy(boxes).toFloatArray(), 1e-7f);
        }
    }

    @Test
    void inverseSigmoidClampsBothTailsAtOneThousandth() {
        try (NDManager m = NDManager.newBaseManager()) {
            NDArray x = m.create(new float[] {0f, 1f, 0.5f, 1.5f, -2f, 0.25f});
            float tail = (float) Math.log(1000);
            assertArrayEquals(new float[] {-tail, tail, 0f, tail, -tail, (float) Math.log(1.0 / 3)},
                    BoxRefinement.inverseSigmoid(x).toFloatArray(), 1e-5f);
        }
    }

    /** d = 8: two sin/cos pairs per coordinate with divisors 1 and 10000^(2/4) = 100, blocks ordered y, x, w, h. */
    @Test
    void sineEmbeddingInterleavesSinCosPerCoordinateInYxwhOrder() {
        try (NDManager m = NDManager.newBaseManager()) {
            float[] box = {0.25f, 0.125f, 0.5f, 0.75f};
            NDArray embedded = BoxSineEmbedding.embed(m.create(box, new Shape(1, 4)), 8);

            float[] expected = new float[16];
            int[] order = {1, 0, 2, 3};
            for (int block = 0; block < 4; block++) {
                double angle = 2 * Math.PI * box[order[block]];
                expected[4 * block] = (float) Math.sin(angle);
                expected[4 * block + 1] = (float) Math.cos(angle);
                expected[4 * block + 2] = (float) Math.sin(angle / 100);
                expected[4 * block + 3] = (float) Math.cos(angle / 100);
            }
            assertArrayEquals(new long[] {1, 16}, embedded.getShape().getShape());
            assertArrayEquals(expected, embedded.toFloatArray(), 1e-6f);
        }
    }

    @Test
    void sineEmbeddingNeedsAWidthDivisibleByFour() {
        try (NDManager m = NDManager.newBaseManager()) {
            NDArray box = m.create(new float[] {0.5f, 0.5f, 0.5f, 0.5f}, new Shape(1, 4));
            assertThrows(IllegalArgumentException.class, () -> BoxSineEmbedding.embed(box, 6));
        }
    }
}
