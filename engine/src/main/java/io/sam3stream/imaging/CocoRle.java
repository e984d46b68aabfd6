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
            throw new IllegalArgumentException(
                    "runs cover " + total + " pixels, the mask has " + (long) height * width);
        }
    }

    /**
     * The runs of a binary mask. Rather than walking the pixels column by column (a cache-hostile stride), it finds
     * where each column changes value by comparing every row with the one above (a vectorised mismatch that skips
     * equal stretches), sorts those changes by column, and reads the runs off them.
     */
    public static CocoRle encode(BinaryMask mask) {
        int height = mask.height();
        int width = mask.width();
        byte[] pixels = mask.pixels();
        // changes (x, y): pixel (x, y) differs from (x, y - 1); found row by row, so y ascends
        IntList changeX = new IntList();
        IntList changeY = new IntList();
        int[] changesBefore = new int[width + 1]; // per column, then prefix sums: first index of column x
        for (int y = 1; y < height; y++) {
            int row = y * width;
            int x = 0;
            while (x < width) {
                int differs = Arrays.mismatch(pixels, row + x, row + width, pixels, row - width + x, row);
                if (differs < 0) {
                    break;
                }
                x += differs;
                changeX.add(x);
                changeY.add(y);
                changesBefore[x + 1]++;
                x++;
            }
        }
        for (int x = 0; x < width; x++) {
            changesBefore[x + 1] += changesBefore[x];
        }
        // counting sort by column keeps each column's changes in ascending y
        int[] columnChanges = new int[changeX.size()];
        int[] cursor = Arrays.copyOf(changesBefore, width);
        for (int i = 0; i < changeX.size(); i++) {
            columnChanges[cursor[changeX.get(i)]++] = changeY.get(i);
        }
        RunCounter runs = new RunCounter();
        for (int x = 0; x < width; x++) {
            int value = pixels[x];
            int from = 0;
            for (int i = changesBefore[x]; i < changesBefore[x + 1]; i++) {
                runs.add(value, columnChanges[i] - from);
                value ^= 1;
                from = columnChanges[i];
            }
            runs.add(value, height - from);
        }
        return new CocoRle(height, width, runs.counts());
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
     * Reads pycocotools' compact string form back into runs: the inverse of {@link #compressedCounts()}.
     *
     * @throws IllegalArgumentException when the string is not that form, or its runs do not cover the mask
     */
    public static CocoRle fromCompressed(int height, int width, String compressed) {
        IntList counts = new IntList();
        int at = 0;
        while (at < compressed.length()) {
            long x = 0;
            int shift = 0;
            int c;
            do {
                if (at >= compressed.length() || shift > 60) {
                    throw new IllegalArgumentException("compressed RLE ends inside a count");
                }
                c = compressed.charAt(at++) - 48;
                if (c < 0 || c > 63) {
                    throw new IllegalArgumentException("compressed RLE holds a character outside '0'..'o'");
                }
                x |= (long) (c & 0x1f) << shift;
                shift += 5;
            } while ((c & 0x20) != 0);
            if ((c & 0x10) != 0) { // the last group's top bit is the sign
                x |= -1L << shift;
            }
            if (counts.size() > 2) {
                x += counts.get(counts.size() - 2);
            }
            if (x < 0 || x > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("compressed RLE decodes to a run of " + x + " pixels");
            }
            counts.add((int) x);
        }
        return new CocoRle(height, width, counts.toArray());
    }

    /** Pixels inside the instance: the sum of the odd runs. */
    public long area() {
        long area = 0;
        for (int i = 1; i < counts.length; i += 2) {
            area += counts[i];
        }
        return area;
    }

    /**
     * The tightest box around the instance's pixels in COCO's {@code [x, y, width, height]} form, as pycocotools'
     * {@code toBbox} computes it; all zeros for an empty mask.
     */
    public int[] boundingBox() {
        int minX = Integer.MAX_VALUE;
        int minY = Integer.MAX_VALUE;
        int maxX = -1;
        int maxY = -1;
        long position = 0;
        for (int i = 0; i < counts.length; i++) {
            long end = position + counts[i];
            if (i % 2 == 1 && counts[i] > 0) {
                // a foreground run of the column-major pixels [position, end): it may span several columns
                int firstX = (int) (position / height);
                int lastX = (int) ((end - 1) / height);
                minX = Math.min(minX, firstX);
                maxX = Math.max(maxX, lastX);
                int firstY = (int) (position % height);
                int lastY = (int) ((end - 1) % height);
                if (firstX == lastX) {
                    minY = Math.min(minY, firstY);
                    maxY = Math.max(maxY, lastY);
                } else { // a run over a column boundary covers every row
                    minY = 0;
                    maxY = height - 1;
                }
            }
            position = end;
        }
        return maxX < 0 ? new int[4] : new int[] {minX, minY, maxX - minX + 1, maxY - minY + 1};
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

    /** Merges consecutive stretches into alternating runs that start with 0s. */
    private static final class RunCounter {
        private final IntList counts = new IntList();
        private int value;
        private int length;

        void add(int stretchValue, int stretchLength) {
            if (stretchValue != value) {
                counts.add(length);
                value = stretchValue;
                length = 0;
            }
            length += stretchLength;
        }

        int[] counts() {
            counts.add(length);
            return counts.toArray();
        }
    }

    /** A growable int array. */
    private static final class IntList {
        private int[] values = new int[64];
        private int size;

        void add(int v) {
            if (size == values.length) {
                values = Arrays.copyOf(values, 2 * size);
            }
            values[size++] = v;
        }

        int get(int i) {
            return values[i];
        }

        int size() {
            return size;
        }

        int[] toArray() {
            return Arrays.copyOf(values, size);
        }
    }
}
