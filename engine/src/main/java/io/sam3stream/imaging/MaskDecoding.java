package io.sam3stream.imaging;

/** Turns encoded masks back into pixels, for tools that draw or check answers (smoke test, overlays). */
public final class MaskDecoding {

    private MaskDecoding() {}

    /** A 0/255 grayscale mask PNG (any PNG: a pixel is set when its first channel is above 127). */
    public static BinaryMask fromPng(byte[] png) {
        RgbImage m = new ImageDecoder(ImageLimits.DEFAULT).decode(png);
        byte[] bits = new byte[m.width() * m.height()];
        for (int y = 0; y < m.height(); y++) {
            for (int x = 0; x < m.width(); x++) {
                bits[y * m.width() + x] = (byte) (m.sample(x, y, 0) > 127 ? 1 : 0);
            }
        }
        return new BinaryMask(m.width(), m.height(), bits);
    }

    /** COCO uncompressed RLE: runs over the column-major pixels, the first run counting zeros. */
    public static BinaryMask fromRle(int height, int width, int[] counts) {
        byte[] bits = new byte[width * height];
        int position = 0;
        for (int run = 0; run < counts.length; run++) {
            int end = position + counts[run];
            if (end > bits.length || counts[run] < 0) {
                throw new IllegalArgumentException("RLE runs exceed the " + width + "x" + height + " mask");
            }
            if (run % 2 == 1) {
                for (int p = position; p < end; p++) {
                    int x = p / height;
                    int y = p % height;
                    bits[y * width + x] = 1;
                }
            }
            position = end;
        }
        return new BinaryMask(width, height, bits);
    }
}
