package io.sam3stream.model.prompt;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import org.junit.jupiter.api.Test;

/**
 * Hand-computed RoIAlign cases on a 4×4 one-channel map whose pixel (y, x) holds 10y + x: bilinear sampling of a
 * linear function is exact, so every sample's value is 10y + x at the (clamped) sample position.
 */
class RoiAlignTest {

    private static float[] align(float[] box, int outputSize) {
        try (NDManager manager = NDManager.newBaseManager()) {
            float[] pixels = new float[16];
            for (int y = 0; y < 4; y++) {
                for (int x = 0; x < 4; x++) {
                    pixels[y * 4 + x] = 10 * y + x;
                }
            }
            NDArray map = manager.create(pixels, new Shape(1, 4, 4));
            NDArray pooled = RoiAlign.align(map, new float[][] {box}, outputSize);
            assertArrayEquals(new long[] {1, 1, outputSize, outputSize}, pooled.getShape().getShape());
            return pooled.toFloatArray();
        }
    }

    @Test
    void samplesEachBinAtItsCentreWhenTheBinIsAtMostOnePixel() {
        // box 2×2 px → bins of 1 px, ⌈1⌉ = 1 sample per bin at (1 + 0.5 + ph, 0.5 + 0.5 + pw)
        assertArrayEquals(new float[] {16f, 17f, 26f, 27f}, align(new float[] {0.5f, 1f, 2.5f, 3f}, 2), 1e-5f);
    }

    @Test
    void averagesAGridOfSamplesCountingThoseOutsideTheMapAsZero() {
        // one 4×4 px bin → 4×4 samples at 2.5, 3.5, 4.5, 5.5 per axis; 3.5 clamps to the last pixel (3) and
        // 4.5, 5.5 lie beyond the map (> 4): the four inside samples 27.5, 28, 32.5 and 33 are averaged over 16
        assertArrayEquals(new float[] {121f / 16}, align(new float[] {2f, 2f, 6f, 6f}, 1), 1e-5f);
    }

    @Test
    void growsADegenerateBoxToOnePixel() {
        // zero-size box at (1, 1) → treated as 1×1 px, sampled at (1.5, 1.5)
        assertArrayEquals(new float[] {16.5f}, align(new float[] {1f, 1f, 1f, 1f}, 1), 1e-5f);
    }

    @Test
    void clampsSamplesWithinOnePixelBeforeTheMapToItsFirstPixel() {
        // box (−1.5, −1.5)–(−0.5, −0.5): its single sample at (−1, −1) is still inside the tolerated border and
        // reads pixel (0, 0)
        assertArrayEquals(new float[] {0f}, align(new float[] {-1.5f, -1.5f, -0.5f, -0.5f}, 1), 1e-5f);
    }
}
