package io.sam3stream.imaging;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** Hand-checkable properties of the antialiased resize; bit-exactness against upstream is in the golden tests. */
class AntialiasedBilinearResizeTest {

    @Test
    void roundingIsHalfToEvenLikeTorchRound() {
        float[] values = {0f, 0.49999997f, 0.5f, 1.5f, 2.5f, 3.5f, 127.5f, 128.5f, 254.5f, 254.50002f, 255f, 1e-30f};
        for (float v : values) {
            assertEquals((float) Math.rint(v), AntialiasedBilinearResize.roundHalfEven(v), "value " + v);
        }
        Random random = new Random(4);
        for (int i = 0; i < 100_000; i++) {
            float v = random.nextFloat() * 255.5f;
            assertEquals((float) Math.rint(v), AntialiasedBilinearResize.roundHalfEven(v), "value " + v);
        }
    }

    @Test
    void twoToOneDownscaleAveragesPixelPairs() {
        // width 4 -> 2, scale 2: output i is centred on source position 2i + 1; sources within distance 2 weigh
        // 1 - |d|/2 = 0.25, 0.75, 0.75, 0.25 (pixel centres at d = ±0.5, ±1.5), normalised by their sum.
        // Each output loses one of its four taps at an image edge, so each sum is 1.75.
        byte[] row = {0, 0, 0, 40, 40, 40, 80, 80, 80, 120, 120, 120};
        RgbImage image = new RgbImage(4, 1, row);

        float[] out = new AntialiasedBilinearResize(1, 2).resizeToChw(image);

        // left: (0·0.75 + 40·0.75 + 80·0.25) / 1.75 = 28.57 -> 29
        // right: (40·0.25 + 80·0.75 + 120·0.75) / 1.75 = 91.43 -> 91
        assertArrayEquals(new float[] {29, 91, 29, 91, 29, 91}, out);
    }

    @Test
    void sameSizeKeepsThePixels() {
        byte[] pixels = new byte[5 * 3 * 3];
        new Random(9).nextBytes(pixels);
        RgbImage image = new RgbImage(5, 3, pixels);

        float[] chw = new AntialiasedBilinearResize(3, 5).resizeToChw(image);

        for (int c = 0; c < 3; c++) {
            for (int i = 0; i < 15; i++) {
                assertEquals(pixels[3 * i + c] & 0xff, chw[c * 15 + i]);
            }
        }
    }
}
