package io.sam3stream.imaging;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** COCO run-length encodings of hand-made masks, worked out by hand, and round trips through a decoder. */
class CocoRleTest {

    /** A mask from rows of '0'/'1' characters, top row first. */
    private static BinaryMask mask(String... rows) {
        int height = rows.length;
        int width = rows[0].length();
        byte[] pixels = new byte[width * height];
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < width; x++) {
                pixels[y * width + x] = (byte) (rows[y].charAt(x) - '0');
            }
        }
        return new BinaryMask(width, height, pixels);
    }

    @Test
    void threeByTwoMaskIsReadColumnByColumnStartingWithZeros() {
        // H=3, W=2:      column 0 top-down: 0 1 0, column 1: 1 1 0
        //   0 1          sequence 0 1 0 1 1 0 -> runs: one 0, one 1, one 0, two 1s, one 0
        //   1 1
        //   0 0
        CocoRle rle = CocoRle.encode(mask("01", "11", "00"));

        assertArrayEquals(new int[] {3, 2}, rle.size());
        assertArrayEquals(new int[] {1, 1, 1, 2, 1}, rle.counts());
        // first three counts as they are ('0' + 1 = '1'); then 2 - 1 = 1 -> '1' and 1 - 1 = 0 -> '0'
        assertEquals("11110", rle.compressedCounts());
    }

    @Test
    void maskStartingInsideTheInstanceBeginsWithAnEmptyRunOfZeros() {
        // H=1, W=3: 1 0 1 -> runs: zero 0s, one 1, one 0, one 1; deltas from the 4th on: 1 - 1 = 0
        CocoRle rle = CocoRle.encode(mask("101"));

        assertArrayEquals(new int[] {0, 1, 1, 1}, rle.counts());
        assertEquals("0110", rle.compressedCounts());
    }

    @Test
    void emptyAndFullMasksAreOneAndTwoRuns() {
        assertArrayEquals(new int[] {4}, CocoRle.encode(mask("00", "00")).counts());
        assertArrayEquals(new int[] {0, 6}, CocoRle.encode(mask("111", "111")).counts());
        assertEquals("06", CocoRle.encode(mask("111", "111")).compressedCounts());
    }

    @Test
    void sixteenNeedsTwoCharactersBecauseBit0x10IsTheSignOfTheLastGroup() {
        // 16 = 0b10000: low group 16 has the sign bit set, so a second group (0) must follow:
        // '0' + (16 | 0x20) = '`', then '0' + 0 = '0'
        CocoRle rle = CocoRle.encode(mask("0000", "0000", "0000", "0000"));

        assertEquals("`0", rle.compressedCounts());
    }

    @Test
    void largeCountsAndNegativeDeltasUseSeveralGroups() {
        // counts 100, 3, 40, 1 (H=1 so column-major is left to right)
        //   100 = 3·32 + 4 -> groups 4 (more: +0x20 -> 'T'), 3 -> '3'
        //   3 -> '3';  40 = 1·32 + 8 -> 'X' (8 | 0x20), '1'
        //   1 - 3 = -2 -> low 5 bits 30 (sign bit set), rest -1 -> done: '0' + 30 = 'N'
        String row = "0".repeat(100) + "111" + "0".repeat(40) + "1";
        CocoRle rle = CocoRle.encode(mask(row));

        assertArrayEquals(new int[] {100, 3, 40, 1}, rle.counts());
        assertEquals("T33X1N", rle.compressedCounts());
    }

    @Test
    void randomMasksRoundTripThroughBothForms() {
        Random random = new Random(3);
        for (int trial = 0; trial < 50; trial++) {
            int height = 1 + random.nextInt(40);
            int width = 1 + random.nextInt(40);
            byte[] pixels = new byte[height * width];
            // blocky masks give long runs as well as short ones
            int block = 1 + random.nextInt(8);
            for (int i = 0; i < pixels.length; i++) {
                pixels[i] = (byte) ((i / block + random.nextInt(3)) % 2);
            }
            BinaryMask original = new BinaryMask(width, height, pixels);
            CocoRle rle = CocoRle.encode(original);

            assertArrayEquals(pixels, CocoRleDecoding.toPixels(rle.counts(), height, width));
            CocoRle read = CocoRle.fromCompressed(height, width, rle.compressedCounts());
            assertArrayEquals(rle.counts(), read.counts());
            assertEquals(area(pixels), read.area());
            assertArrayEquals(tightBox(pixels, width, height), read.boundingBox(), "bbox of trial " + trial);
        }
    }

    @Test
    void compressedCountsOfAnotherFormAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> CocoRle.fromCompressed(2, 2, "4 "));  // outside '0'..'o'
        assertThrows(IllegalArgumentException.class, () -> CocoRle.fromCompressed(2, 2, "P"));   // ends in a count
        assertThrows(IllegalArgumentException.class, () -> CocoRle.fromCompressed(2, 2, "5"));   // 5 of 4 pixels
        assertThrows(IllegalArgumentException.class, () -> CocoRle.fromCompressed(2, 2, "0@"));  // a negative run
        assertArrayEquals(new int[4], CocoRle.fromCompressed(2, 2, "4").boundingBox());
        assertArrayEquals(new int[] {0, 0, 3, 2}, CocoRle.fromCompressed(2, 3, "06").boundingBox());
    }

    private static long area(byte[] pixels) {
        long n = 0;
        for (byte b : pixels) {
            n += b;
        }
        return n;
    }

    /** [x, y, width, height] around the set pixels, found pixel by pixel; zeros for none. */
    private static int[] tightBox(byte[] pixels, int width, int height) {
        int minX = width;
        int minY = height;
        int maxX = -1;
        int maxY = -1;
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < width; x++) {
                if (pixels[y * width + x] != 0) {
                    minX = Math.min(minX, x);
                    maxX = Math.max(maxX, x);
                    minY = Math.min(minY, y);
                    maxY = Math.max(maxY, y);
                }
            }
        }
        return maxX < 0 ? new int[4] : new int[] {minX, minY, maxX - minX + 1, maxY - minY + 1};
    }

    @Test
    void countsMustCoverTheMaskExactly() {
        assertThrows(IllegalArgumentException.class, () -> new CocoRle(2, 2, new int[] {1, 2}));
    }
}
