package io.sam3stream.imaging;

import java.util.Arrays;

/** The inverse of COCO RLE, written from pycocotools' rleDecode and rleFrString, to check encodings in tests. */
final class CocoRleDecoding {

    private CocoRleDecoding() {}

    /** Row-major 0/1 pixels of the runs, which are column-major and start with 0s. */
    static byte[] toPixels(int[] counts, int height, int width) {
        byte[] pixels = new byte[height * width];
        int position = 0; // column-major index
        byte value = 0;
        for (int count : counts) {
            for (int k = 0; k < count; k++, position++) {
                int y = position % height;
                int x = position / height;
                pixels[y * width + x] = value;
            }
            value ^= 1;
        }
        return pixels;
    }

    /** The counts of a compressed counts string. */
    static int[] fromCompressedCounts(String s) {
        int[] counts = new int[s.length()];
        int m = 0;
        int p = 0;
        while (p < s.length()) {
            long x = 0;
            int k = 0;
            boolean more = true;
            while (more) {
                int c = s.charAt(p) - 48;
                x |= (long) (c & 0x1f) << (5 * k);
                more = (c & 0x20) != 0;
                p++;
                k++;
                if (!more && (c & 0x10) != 0) {
                    x |= -1L << (5 * k);
                }
            }
            if (m > 2) {
                x += counts[m - 2];
            }
            counts[m++] = (int) x;
        }
        return Arrays.copyOf(counts, m);
    }
}
