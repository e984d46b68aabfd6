package io.sam3stream.model.vision;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import org.junit.jupiter.api.Test;

class AxialRopeTest {

    /** head dim 8: 2 frequencies per axis, f0 = 1 and f1 = 10000^(−4/8) = 0.01. */
    @Test
    void anglesPutColumnFrequenciesBeforeRowFrequenciesAtScaledPositions() {
        float[] angles = AxialRope.angles(2, 8, 0.5f);
        // token t = y·2 + x; pairs [x·f0, x·f1, y·f0, y·f1] with x, y halved
        float[] expected = {
            0f, 0f, 0f, 0f,             // t=0: (x, y) = (0, 0)
            0.5f, 0.005f, 0f, 0f,       // t=1: (1, 0)
            0f, 0f, 0.5f, 0.005f,       // t=2: (0, 1)
            0.5f, 0.005f, 0.5f, 0.005f, // t=3: (1, 1)
        };
        assertArrayEquals(expected, angles, 1e-9f);
    }

    @Test
    void fullSizeHeadUsesSixteenFrequenciesPerAxis() {
        float[] angles = AxialRope.angles(72, 64, 1f / 3);
        int pairs = 32;
        int token = 5 * 72 + 7; // x = 7, y = 5
        assertArrayEquals(new float[] {7f / 3, (float) (7.0 / 3 * Math.pow(10000, -1.0 / 16))},
                new float[] {angles[token * pairs], angles[token * pairs + 1]}, 1e-5f);
        assertArrayEquals(new float[] {5f / 3, (float) (5.0 / 3 * Math.pow(10000, -15.0 / 16))},
                new float[] {angles[token * pairs + 16], angles[token * pairs + 31]}, 1e-5f);
    }

    @Test
    void applyRotatesInterleavedPairsAsComplexNumbers() {
        try (NDManager manager = NDManager.newBaseManager()) {
            AxialRope rope = AxialRope.create(manager, 2, 4, 1f);
            // one head, 4 tokens, head dim 4 = pairs (a0, b0) rotated by x and (a1, b1) rotated by y
            float[] values = new float[16];
            for (int t = 0; t < 4; t++) {
                values[t * 4] = 1f;      // pair 0 = 1 + 0i
                values[t * 4 + 2] = 2f;  // pair 1 = 2 + 3i
                values[t * 4 + 3] = 3f;
            }
            NDArray x = manager.create(values, new Shape(1, 1, 4, 4));
            float[] out = rope.apply(x).toFloatArray();
            for (int t = 0; t < 4; t++) {
                double ax = t % 2;
                double ay = t / 2;
                float[] expected = {
                    (float) Math.cos(ax), (float) Math.sin(ax),
                    (float) (2 * Math.cos(ay) - 3 * Math.sin(ay)), (float) (2 * Math.sin(ay) + 3 * Math.cos(ay)),
                };
                float[] actual = {out[t * 4], out[t * 4 + 1], out[t * 4 + 2], out[t * 4 + 3]};
                assertArrayEquals(expected, actual, 1e-6f, "token " + t);
            }
        }
    }

    @Test
    void refusesInputsOfAnotherTokenCount() {
        try (NDManager manager = NDManager.newBaseManager()) {
            AxialRope rope = AxialRope.create(manager, 2, 4, 1f);
            NDArray nineTokens = manager.zeros(new Shape(1, 1, 9, 4));
            assertThrows(IllegalArgumentException.class, () -> rope.apply(nineTokens));
        }
    }

    @Test
    void rotatingThePackedProjectionEqualsRotatingQueriesAndKeysApart() {
        try (NDManager manager = NDManager.newBaseManager()) {
            int heads = 2;
            int headDim = 8;
            AxialRope rope = AxialRope.create(manager, 3, headDim, 0.5f);
            // (N = 2 sequences, 9 tokens, [q | k | v] of 2 heads x 8 channels)
            NDArray qkv = manager.randomNormal(new Shape(2, 9, 3 * heads * headDim));
            NDArray packed = qkv.reshape(2, 9, 3, heads, headDim).transpose(2, 0, 3, 1, 4);
            NDArray rotated = rope.rotateQk(qkv, heads).transpose(2, 0, 3, 1, 4);
            assertArrayEquals(rope.apply(packed.get(0)).toFloatArray(), rotated.get(0).toFloatArray(), 1e-6f);
            assertArrayEquals(rope.apply(packed.get(1)).toFloatArray(), rotated.get(1).toFloatArray(), 1e-6f);
        }
    }

    @Test
    void refusesAPackedProjectionOfAnotherTokenCount() {
        try (NDManager manager = NDManager.newBaseManager()) {
            AxialRope rope = AxialRope.create(manager, 2, 4, 1f);
            NDArray nineTokens = manager.zeros(new Shape(1, 9, 3 * 4));
            assertThrows(IllegalArgumentException.class, () -> rope.rotateQk(nineTokens, 1));
        }
    }

    @Test
    void refusesHeadDimsThatAreNotMultiplesOfFour() {
        assertThrows(IllegalArgumentException.class, () -> AxialRope.angles(2, 6, 1f));
    }
}
