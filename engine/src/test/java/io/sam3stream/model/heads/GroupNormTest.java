package io.sam3stream.model.heads;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import org.junit.jupiter.api.Test;

class GroupNormTest {

    /**
     * 4 channels of 1×2 pixels in 2 groups. Group 0 holds {1, 3, 5, 7}: mean 4, biased variance 5. Group 1 is
     * constant 2: variance 0, so it normalises to 0 and only the shift remains.
     */
    @Test
    void normalisesEachGroupOverItsChannelsAndPixelsThenAppliesPerChannelAffine() {
        try (NDManager m = NDManager.newBaseManager()) {
            GroupNorm norm = new GroupNorm(2, m.create(new float[] {1f, 2f, 1f, 1f}),
                    m.create(new float[] {0f, 0f, 0.5f, -0.5f}), GroupNorm.DEFAULT_EPS);
            NDArray x = m.create(new float[] {1f, 3f, 5f, 7f, 2f, 2f, 2f, 2f}, new Shape(1, 4, 1, 2));

            NDArray y = norm.forward(x);

            float inv = (float) (1 / Math.sqrt(5 + GroupNorm.DEFAULT_EPS));
            float[] expected = {-3 * inv, -inv, 2 * inv, 2 * 3 * inv, 0.5f, 0.5f, -0.5f, -0.5f};
            assertArrayEquals(new long[] {1, 4, 1, 2}, y.getShape().getShape());
            assertArrayEquals(expected, y.toFloatArray(), 1e-6f);
        }
    }

    @Test
    void normalisesEverySampleOfTheBatchOnItsOwn() {
        try (NDManager m = NDManager.newBaseManager()) {
            GroupNorm norm = new GroupNorm(1, m.ones(new Shape(2)), m.zeros(new Shape(2)), GroupNorm.DEFAULT_EPS);
            NDArray x = m.create(new float[] {0f, 2f, 10f, 30f}, new Shape(2, 2, 1, 1));

            float[] y = norm.forward(x).toFloatArray();

            float a = (float) (1 / Math.sqrt(1 + GroupNorm.DEFAULT_EPS));
            float b = (float) (10 / Math.sqrt(100 + GroupNorm.DEFAULT_EPS));
            assertArrayEquals(new float[] {-a, a, -b, b}, y, 1e-6f);
        }
    }

    @Test
    void rejectsChannelsNotDivisibleIntoGroups() {
        try (NDManager m = NDManager.newBaseManager()) {
            GroupNorm norm = new GroupNorm(2, m.ones(new Shape(3)), m.zeros(new Shape(3)), GroupNorm.DEFAULT_EPS);
            assertThrows(IllegalArgumentException.class, () -> norm.forward(m.ones(new Shape(1, 3, 2, 2))));
        }
    }
}
