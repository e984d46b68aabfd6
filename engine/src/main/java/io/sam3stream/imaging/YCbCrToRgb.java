package io.sam3stream.imaging;

/**
 * libjpeg's YCbCr → RGB conversion ({@code jdcolor.c}, the same integer tables in IJG libjpeg and libjpeg-turbo):
 * R = Y + 1.402·(Cr−128), G = Y − 0.34414·(Cb−128) − 0.71414·(Cr−128), B = Y + 1.772·(Cb−128), each product in
 * 16-bit fixed point rounded as libjpeg rounds it, the sums clamped to 0..255. Reproducing it bit for bit makes
 * decoded JPEG pixels identical to Pillow's.
 */
final class YCbCrToRgb {

    private static final int SCALE_BITS = 16;
    private static final int ONE_HALF = 1 << (SCALE_BITS - 1);
    private static final int[] CR_TO_R = new int[256];
    private static final int[] CB_TO_B = new int[256];
    private static final int[] CR_TO_G = new int[256];
    private static final int[] CB_TO_G = new int[256];

    static {
        for (int i = 0; i < 256; i++) {
            int x = i - 128;
            CR_TO_R[i] = (fix(1.40200) * x + ONE_HALF) >> SCALE_BITS;
            CB_TO_B[i] = (fix(1.77200) * x + ONE_HALF) >> SCALE_BITS;
            CR_TO_G[i] = -fix(0.71414) * x;
            CB_TO_G[i] = -fix(0.34414) * x + ONE_HALF;
        }
    }

    private YCbCrToRgb() {}

    private static int fix(double x) {
        return (int) (x * (1 << SCALE_BITS) + 0.5);
    }

    /** Converts interleaved Y, Cb, Cr triples to R, G, B in place. */
    static void convertInPlace(byte[] pixels) {
        for (int i = 0; i < pixels.length; i += 3) {
            int y = pixels[i] & 0xff;
            int cb = pixels[i + 1] & 0xff;
            int cr = pixels[i + 2] & 0xff;
            pixels[i] = clamp(y + CR_TO_R[cr]);
            pixels[i + 1] = clamp(y + ((CB_TO_G[cb] + CR_TO_G[cr]) >> SCALE_BITS));
            pixels[i + 2] = clamp(y + CB_TO_B[cb]);
        }
    }

    private static byte clamp(int v) {
        return (byte) Math.max(0, Math.min(255, v));
    }
}
