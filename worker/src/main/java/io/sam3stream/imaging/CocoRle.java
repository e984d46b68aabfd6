package io.sam3stream.imaging;

import java.util.Arrays;

/**
 * A mask in COCO run-length encoding, as pycocotools' {@code mask.encode} produces it: the pixels are read in
 * column-major (Fortran) order and {@code counts} alternates run lengths of 0s and 1s, starting with 0s (so the
 * first count is 0 when the top-left pixel is inside the instance). {@link #compressedCounts()} gives the same runs
 * in pycocotools' compact string form.
 *
 * @param height rows of the mask (the first element of COCO's {@code size})
 * @param width  columns of the mask
 * @param counts run lengths, summing to {@code height × width}
 */
public record CocoRle(int height, int width, int[] counts) {

    public CocoRle {
        counts = counts.clone();
        long total = 0;
        for (int c : counts) {
            if (c < 0) {
                throw new IllegalArgumentException("negative run length " + c);
            }
            total += c;
        }
        if (total != (long) height * width) {
            throw new IllegalArgumentException("runs cover " + total + " pixels, the mask has " + (long) height * width);
        }
    }

    /** The runs of a binary mask. */
    public static CocoRle encode(BinaryMask mask) {
        int height = mask.height();
        int width = mask.width();
        byte[] pixels = mask.pixels();
        int[] runs = new int[16];
        int n = 0;
        int current = 0; // COCO starts with a run of zeros, possibly empty
        int length = 0;
        for (int x = 0; x < width; x++) {
            for (int i = x; i < pixels.length; i += width) {
                if (pixels[i] == current) {
                    length++;
                } else {
                    if (n == runs.length) {
                        runs = Arrays.copyOf(runs, 2 * n);
                    }
                    runs[n++] = length;
                    current ^= 1;
                    length = 1;
                }
            }
        }
        if (n == runs.length) {
            runs = Arrays.copyOf(runs, n + 1);
        }
        runs[n++] = length;
        return new CocoRle(height, width, Arrays.copyOf(runs, n));
    }

    @Override
    public int[] counts() {
        return counts.clone();
    }

    /** COCO's {@code size}: {@code [height, width]}. */
    public int[] size() {
        return new int[] {height, width};
    }

    /**
     * The counts as pycocotools' {@code rleToString} writes them (the {@code counts} string of a compressed RLE):
     * from the fourth count on, each count is replaced by its difference to the count two places earlier; every
     * value is then written as little-endian groups of 5 bits in characters {@code '0' + group}, bit 0x20 marking
     * that another group follows and bit 0x10 of the last group giving the sign.
     */
    public String compressedCounts() {
        StringBuilder s = new StringBuilder(counts.length * 2);
        for (int i = 0; i < counts.length; i++) {
            long x = counts[i];
            if (i > 2) {
                x -= counts[i - 2];
            }
            boolean more = true;
            while (more) {
                int c = (int) (x & 0x1f);
                x >>= 5;
                more = (c & 0x10) != 0 ? x != -1 : x != 0;
                if (more) {
                    c |= 0x20;
                }
                s.append((char) (c + 48));
            }
        }
        return s.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CocoRle r && r.height == height && r.width == width && Arrays.equals(r.counts, counts);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * height + width) + Arrays.hashCode(counts);
    }

    @Override
    public String toString() {
        return "CocoRle[size=" + height + "x" + width + ", counts=" + Arrays.toString(counts) + "]";
    }
}
