package io.sam3stream.imaging;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The mask deflater's zlib streams inflate (checksum included) to exactly the PNG scanlines of the mask, for shapes
 * that exercise every code path: repeated rows, runs longer than one back-reference, remainders of 1 and 2 bytes,
 * isolated pixels and one-pixel-wide masks.
 */
class MaskScanlineDeflaterTest {

    private static BinaryMask shape(String name) {
        return switch (name) {
            case "empty" -> mask(300, 7, (x, y) -> false);
            case "full" -> mask(300, 7, (x, y) -> true);
            case "one column" -> mask(1, 9, (x, y) -> y % 3 == 0);
            case "two columns" -> mask(2, 9, (x, y) -> (x + y) % 2 == 0);
            case "runs of 259, 260, 261" -> mask(1 + 259 + 260 + 261, 3,
                    (x, y) -> x >= 1 + 259 && x < 1 + 259 + 260);
            case "disc" -> mask(640, 480, (x, y) -> (x - 300) * (x - 300) + (y - 200) * (y - 200) < 150 * 150);
            case "stripes" -> mask(97, 50, (x, y) -> (x / 5 + y / 7) % 2 == 0);
            case "noise" -> {
                Random random = new Random(11);
                yield mask(64, 40, (x, y) -> random.nextInt(3) == 0);
            }
            default -> throw new IllegalArgumentException(name);
        };
    }

    private interface Inside {
        boolean at(int x, int y);
    }

    private static BinaryMask mask(int width, int height, Inside inside) {
        byte[] pixels = new byte[width * height];
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < width; x++) {
                pixels[y * width + x] = (byte) (inside.at(x, y) ? 1 : 0);
            }
        }
        return new BinaryMask(width, height, pixels);
    }

    /** Filter byte 0, then 0 or 255 per pixel, row after row. */
    private static byte[] scanlines(BinaryMask mask) {
        int stride = mask.width() + 1;
        byte[] raw = new byte[stride * mask.height()];
        for (int y = 0; y < mask.height(); y++) {
            for (int x = 0; x < mask.width(); x++) {
                raw[y * stride + 1 + x] = (byte) (mask.get(x, y) ? 255 : 0);
            }
        }
        return raw;
    }

    private static byte[] inflate(byte[] zlib, int expectedLength) throws DataFormatException {
        Inflater inflater = new Inflater();
        try {
            inflater.setInput(zlib);
            byte[] out = new byte[expectedLength + 1];
            int n = inflater.inflate(out);
            assertTrue(inflater.finished(), "the stream ends, its Adler-32 checked");
            assertEquals(0, inflater.getRemaining(), "nothing after the checksum");
            return Arrays.copyOf(out, n);
        } finally {
            inflater.end();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"empty", "full", "one column", "two columns", "runs of 259, 260, 261", "disc", "stripes",
        "noise"})
    void inflatesToThePngScanlinesOfTheMask(String name) throws DataFormatException {
        BinaryMask mask = shape(name);
        byte[] expected = scanlines(mask);

        assertArrayEquals(expected, inflate(MaskScanlineDeflater.compress(mask), expected.length));
    }

    @ParameterizedTest
    @ValueSource(strings = {"empty", "disc"})
    void blobShapedMasksTakeAFewBytesPerRow(String name) {
        BinaryMask mask = shape(name);

        int size = MaskScanlineDeflater.compress(mask).length;

        // a 640-pixel row of one run: 3 + 3 bits of literals, 2 × (1 + 1) bits of 258-byte repeats, ~13 bits
        // for the remainder; a row crossing the disc has three runs
        assertTrue(size < 6 * mask.height() + 200, name + " took " + size + " bytes");
    }

    @Test
    void canonicalCodesFollowTheRfcExample() {
        // RFC 1951 §3.2.2: lengths (3, 3, 3, 3, 3, 2, 4, 4) give 010 011 100 101 110 00 1110 1111
        int[] codes = MaskScanlineDeflater.canonicalCodes(new int[] {3, 3, 3, 3, 3, 2, 4, 4});

        assertArrayEquals(new int[] {0b010, 0b011, 0b100, 0b101, 0b110, 0b00, 0b1110, 0b1111}, codes);
    }
}
