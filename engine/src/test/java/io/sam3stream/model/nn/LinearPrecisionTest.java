package io.sam3stream.model.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import org.junit.jupiter.api.Test;

class LinearPrecisionTest {

    // every value, every partial sum and every output (7.25, 91.5, 11.125, 125.5) has at most 8 significant bits,
    // so bfloat16 holds each exactly: the product must equal float32's
    private static final float[] W = {0.5f, -1.25f, 3f, 0.5f, -2f, 32f};
    private static final float[] X = {1, 2, 3, -1, 0.5f, 4};
    private static final float[] BIAS = {0.25f, -1f};

    @Test
    void bf16LayersOfExactlyRepresentableValuesGiveTheFloat32Product() {
        try (NDManager m = NDManager.newBaseManager()) {
            NDArray x = m.create(X, new Shape(2, 3));
            Linear wide = new Linear(m.create(W, new Shape(2, 3)), m.create(BIAS));
            Linear narrow = Linear.of(m.create(W, new Shape(2, 3)), m.create(BIAS), Precision.BF16_LINEAR);
            float[] expected = wide.forward(x).toFloatArray();
            assertArrayEquals(expected, narrow.forward(x).toFloatArray(), 0f);
            assertArrayEquals(expected, narrow.forwardReadOnly(x).toFloatArray(), 0f);
            Linear unbiased = Linear.of(m.create(W, new Shape(2, 3)), null, Precision.BF16_LINEAR);
            assertArrayEquals(new Linear(m.create(W, new Shape(2, 3)), null).forward(x).toFloatArray(),
                    unbiased.forward(x).toFloatArray(), 0f);
        }
    }

    @Test
    void theMutableBf16ResultMayBeUpdatedInPlace() {
        try (NDManager m = NDManager.newBaseManager()) {
            Linear narrow = Linear.of(m.create(W, new Shape(2, 3)), m.create(BIAS), Precision.BF16_LINEAR);
            NDArray y = narrow.forward(m.create(X, new Shape(2, 3)));
            float before = y.toFloatArray()[0];
            y.addi(1);
            assertArrayEquals(new float[] {before + 1}, new float[] {y.toFloatArray()[0]}, 0f);
        }
    }

    @Test
    void bf16RoundsTheInputAndTheWeightsToEightSignificantBits() {
        try (NDManager m = NDManager.newBaseManager()) {
            // bfloat16's step at 1 is 2^-7: 1 + 2^-9 is a quarter step and rounds down to 1, 1 + 3·2^-9 rounds up
            NDArray x = m.create(new float[] {1f + 1f / 512, 1f + 3f / 512}, new Shape(1, 2));
            Linear identity = Linear.of(m.create(new float[] {1, 0, 0, 1}, new Shape(2, 2)), null,
                    Precision.BF16_LINEAR);
            assertArrayEquals(new float[] {1f, 1f + 1f / 128}, identity.forward(x).toFloatArray(), 0f);
            Linear sum = Linear.of(m.create(new float[] {1f + 1f / 512, 1f + 3f / 512}, new Shape(1, 2)), null,
                    Precision.BF16_LINEAR);
            NDArray ones = m.create(new float[] {1, 0}, new Shape(1, 2));
            assertArrayEquals(new float[] {1f}, sum.forward(ones).toFloatArray(), 0f);
        }
    }

    @Test
    void onlyBf16AttentionBlocksMatricesAndOnlyWhereOneDnnMultipliesBf16() {
        try (NDManager m = NDManager.newBaseManager()) {
            NDArray x = m.create(X, new Shape(2, 3));
            float[] expected = new Linear(m.create(W, new Shape(2, 3)), m.create(BIAS)).forward(x).toFloatArray();
            for (Precision plain : new Precision[] {Precision.FP32, Precision.BF16_LINEAR}) {
                Linear layer = Linear.of(m.create(W, new Shape(2, 3)), m.create(BIAS), plain);
                assertSame(layer, layer.withBlockedMatrix(), plain.label());
            }
            Linear layer = Linear.of(m.create(W, new Shape(2, 3)), m.create(BIAS), Precision.BF16);
            Linear blocked = layer.withBlockedMatrix();
            assertEquals(FusedOps.oneDnnMultipliesBf16(), blocked.blocked());
            assertEquals(FusedOps.oneDnnMultipliesBf16(), Precision.BF16.blocksLinearMatrices());
            // the values are exact in bfloat16 (see above), so either layout must give float32's product
            assertArrayEquals(expected, blocked.forward(x).toFloatArray(), 0f);
            assertArrayEquals(expected, blocked.forwardReadOnly(x).toFloatArray(), 0f);
        }
    }

    @Test
    void everyBf16PrecisionBlocksFewRowMatricesWhereOneDnnMultipliesBf16() {
        try (NDManager m = NDManager.newBaseManager()) {
            NDArray x = m.create(X, new Shape(2, 3));
            float[] expected = new Linear(m.create(W, new Shape(2, 3)), m.create(BIAS)).forward(x).toFloatArray();
            Linear fp32 = Linear.of(m.create(W, new Shape(2, 3)), m.create(BIAS), Precision.FP32);
            assertSame(fp32, fp32.withBlockedMatrixForFewRows());
            for (Precision narrow : new Precision[] {Precision.BF16_LINEAR, Precision.BF16}) {
                Linear blocked = Linear.of(m.create(W, new Shape(2, 3)), m.create(BIAS), narrow)
                        .withBlockedMatrixForFewRows();
                assertEquals(FusedOps.oneDnnMultipliesBf16(), narrow.blocksFewRowMatrices(), narrow.label());
                assertEquals(FusedOps.oneDnnMultipliesBf16(), blocked.blocked(), narrow.label());
                assertSame(blocked, blocked.withBlockedMatrixForFewRows(), "a blocked matrix is not reordered again");
                assertArrayEquals(expected, blocked.forward(x).toFloatArray(), 0f, narrow.label());
            }
        }
    }

    @Test
    void bf16AttentionNeedsBf16LinearLayers() {
        assertThrows(IllegalArgumentException.class, () -> new Precision(false, true));
    }
}
