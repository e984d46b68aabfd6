package io.sam3stream.model.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import org.junit.jupiter.api.Test;

/** libtorch's fused attention computes what the op-by-op control computes, in every form the model uses it. */
class FusedAttentionTest {

    private static float[] attend(ComputeOptions options, NDArray q, NDArray k, NDArray v, NDArray bias) {
        try (ComputeOptions.Scope scope = options.activate()) {
            return Attention.scaledDotProduct(q, k, v, bias, Precision.FP32).toFloatArray();
        }
    }

    @Test
    void oneKeyGivesItsValueWhateverTheQuery() {
        try (NDManager m = NDManager.newBaseManager()) {
            NDArray q = m.randomNormal(new Shape(1, 2, 3, 4));
            NDArray k = m.randomNormal(new Shape(1, 2, 1, 4));
            NDArray v = m.create(new float[] {1, 2, 3, 4, 5, 6, 7, 8}, new Shape(1, 2, 1, 4));
            float[] out = attend(ComputeOptions.OPTIMIZED, q, k, v, null);
            assertArrayEquals(new float[] {1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 5, 6, 7, 8, 5, 6, 7, 8, 5, 6, 7, 8},
                    out, 1e-6f);
        }
    }

    @Test
    void unmaskedAttentionMatchesTheControl() {
        try (NDManager m = NDManager.newBaseManager()) {
            NDArray q = m.randomNormal(new Shape(2, 4, 50, 16));
            NDArray k = m.randomNormal(new Shape(2, 4, 70, 16));
            NDArray v = m.randomNormal(new Shape(2, 4, 70, 8));
            assertArrayEquals(attend(ComputeOptions.PLAIN, q, k, v, null),
                    attend(ComputeOptions.OPTIMIZED, q, k, v, null), 1e-5f);
        }
    }

    @Test
    void paddingMaskAndBatchBroadcastMatchTheControl() {
        try (NDManager m = NDManager.newBaseManager()) {
            // one image's tokens (batch 1) attend to three prompts whose last keys are padding
            NDArray q = m.randomNormal(new Shape(1, 2, 40, 8));
            NDArray k = m.randomNormal(new Shape(3, 2, 6, 8));
            NDArray v = m.randomNormal(new Shape(3, 2, 6, 8));
            boolean[] padding = new boolean[18];
            padding[5] = true;
            padding[10] = true;
            padding[11] = true;
            NDArray bias = Attention.keyPaddingBias(m.create(padding, new Shape(3, 6)));
            float[] fused = attend(ComputeOptions.OPTIMIZED, q, k, v, bias);
            assertEquals(3 * 2 * 40 * 8, fused.length);
            assertArrayEquals(attend(ComputeOptions.PLAIN, q, k, v, bias), fused, 1e-5f);
        }
    }

    @Test
    void causalBiasMatchesTheControl() {
        try (NDManager m = NDManager.newBaseManager()) {
            int n = 12;
            float[] causal = new float[n * n];
            for (int i = 0; i < n; i++) {
                for (int j = i + 1; j < n; j++) {
                    causal[i * n + j] = Float.NEGATIVE_INFINITY;
                }
            }
            NDArray bias = m.create(causal, new Shape(n, n));
            NDArray q = m.randomNormal(new Shape(2, 3, n, 8));
            NDArray k = m.randomNormal(new Shape(2, 3, n, 8));
            NDArray v = m.randomNormal(new Shape(2, 3, n, 8));
            assertArrayEquals(attend(ComputeOptions.PLAIN, q, k, v, bias),
                    attend(ComputeOptions.OPTIMIZED, q, k, v, bias), 1e-5f);
        }
    }

    @Test
    void bf16AttentionMatchesFloat32ToBfloat16RoundingWithMasksAndBroadcastBatches() {
        try (NDManager m = NDManager.newBaseManager()) {
            NDArray q = m.randomNormal(new Shape(1, 4, 30, 16));
            NDArray k = m.randomNormal(new Shape(3, 4, 40, 16));
            NDArray v = m.randomNormal(new Shape(3, 4, 40, 8));
            boolean[] padding = new boolean[3 * 40];
            for (int i = 30; i < 40; i++) {
                padding[40 + i] = true; // the second sequence's last ten keys are padding
            }
            NDArray bias = Attention.keyPaddingBias(m.create(padding, new Shape(3, 40)));
            float[] wide = Attention.scaledDotProduct(q, k, v, bias, Precision.FP32).toFloatArray();
            float[] narrow = Attention.scaledDotProduct(q, k, v, bias, Precision.BF16).toFloatArray();
            float[] linearOnly = Attention.scaledDotProduct(q, k, v, bias, Precision.BF16_LINEAR).toFloatArray();
            assertArrayEquals(wide, linearOnly, 0f);
            double maxDiff = 0;
            for (int i = 0; i < wide.length; i++) {
                maxDiff = Math.max(maxDiff, Math.abs(wide[i] - narrow[i]));
            }
            // values are weighted means of N(0, 1) samples; 8-bit mantissas put the error near 1e-2, never near 1
            assertTrue(maxDiff > 0 && maxDiff < 5e-2, "max diff " + maxDiff);
        }
    }
}
