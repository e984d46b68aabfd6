package io.sam3stream.model.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import org.junit.jupiter.api.Test;

class LinearPrecisionTest {

    @Test
    void bf16WeightsThatBfloat16HoldsExactlyGiveTheFloat32Product() {
        try (NDManager m = NDManager.newBaseManager()) {
            // every weight has at most 8 significant bits, so rounding to bfloat16 keeps it
            float[] w = {0.5f, -1.25f, 3f, 0.0078125f, -2f, 96f};
            NDArray x = m.create(new float[] {1, 2, 3, -1, 0.5f, 4}, new Shape(2, 3));
            NDArray bias = m.create(new float[] {0.25f, -1f});
            WeightPrecision bf16 = WeightPrecision.BF16;
            Linear narrow = new Linear(bf16.store(m.create(w, new Shape(2, 3))), bias, bf16);
            Linear wide = new Linear(m.create(w, new Shape(2, 3)), bias);
            // y[i][j] = x[i]·w[j] + bias[j]
            float[] expected = {7.25f, 0.0078125f - 4f + 288f - 1f, -0.5f - 0.625f + 12f + 0.25f,
                -0.0078125f - 1f + 384f - 1f};
            assertArrayEquals(expected, wide.forward(x).toFloatArray(), 1e-5f);
            assertArrayEquals(expected, narrow.forward(x).toFloatArray(), 1e-5f);
        }
    }

    @Test
    void bf16RoundsOtherWeightsToEightSignificantBits() {
        try (NDManager m = NDManager.newBaseManager()) {
            WeightPrecision bf16 = WeightPrecision.BF16;
            NDArray stored = bf16.store(m.create(new float[] {1f + 1f / 512, 1f + 3f / 512}, new Shape(1, 2)));
            // bfloat16's step at 1 is 2^-7: 1 + 2^-9 is a quarter step and rounds down, 1 + 3·2^-9 rounds up
            assertArrayEquals(new float[] {1f, 1f + 1f / 128}, bf16.widen(stored).toFloatArray(), 0f);
        }
    }

    @Test
    void dtypeNamesAreReadCaseInsensitively() {
        assertEquals(WeightPrecision.BF16, WeightPrecision.of("BF16"));
        assertEquals(WeightPrecision.FP32, WeightPrecision.of("fp32"));
        assertThrows(IllegalArgumentException.class, () -> WeightPrecision.of("fp16"));
    }
}
