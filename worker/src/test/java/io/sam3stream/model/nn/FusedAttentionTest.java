package io.sam3stream.model.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import org.junit.jupiter.api.Test;

/** libtorch's fused attention computes what the op-by-op control computes, in every form the model uses it. */
class FusedAttentionTest {

    private static float[] attend(ComputeOptions options, NDArray q, NDArray k, NDArray v, NDArray bias) {
        try (ComputeOptions.Scope scope = options.activate()) {
            return Attention.scaledDotProduct(q, k, v, bias).toFloatArray();
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
}
