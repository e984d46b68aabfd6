package io.sam3stream.fuzz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.sam3stream.imaging.BinaryMask;
import io.sam3stream.imaging.CocoRle;
import io.sam3stream.imaging.PngEncoder;
import java.awt.image.BufferedImage;
import java.awt.image.Raster;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import javax.imageio.ImageIO;

/**
 * Fuzz target for the mask encoders: a mask built from the fuzzer's bytes is encoded as PNG and as COCO RLE, and
 * each encoding is decoded here, independently of the project's code (the PNG by {@code javax.imageio}, the RLE
 * by expanding its runs and parsing pycocotools' compressed string), and compared with the mask pixel for pixel.
 * Seeds: {@code MaskEncodingFuzzTestInputs/pngAndRleRoundTrip/}.
 */
class MaskEncodingFuzzTest {

    private static final int MAX_SIDE = 96;

    @FuzzTest
    void pngAndRleRoundTrip(FuzzedDataProvider data) {
        BinaryMask mask = mask(data);
        assertArrayEquals(mask.pixels(), pngPixels(PngEncoder.encodeMask(mask)), "PNG of " + describe(mask));
        CocoRle rle = CocoRle.encode(mask);
        assertArrayEquals(mask.pixels(), rlePixels(rle), "RLE of " + describe(mask));
        assertArrayEquals(rle.counts(), CocoRle.fromCompressed(rle.height(), rle.width(), rle.compressedCounts()).counts(),
                "compressed counts");
    }

    /** A mask of fuzzed size whose row-major pixels are runs of alternating value and fuzzed length. */
    private static BinaryMask mask(FuzzedDataProvider data) {
        int width = data.consumeInt(1, MAX_SIDE);
        int height = data.consumeInt(1, MAX_SIDE);
        byte[] pixels = new byte[width * height];
        int value = data.consumeBoolean() ? 1 : 0;
        for (int at = 0; at < pixels.length && data.remainingBytes() > 0; value ^= 1) {
            int run = data.consumeInt(1, pixels.length - at);
            Arrays.fill(pixels, at, at + run, (byte) value);
            at += run;
        }
        return new BinaryMask(width, height, pixels);
    }

    /** The mask a PNG shows: 1 where the grey sample is 255, 0 where it is 0 (any other value fails). */
    private static byte[] pngPixels(byte[] png) {
        BufferedImage image;
        try {
            image = ImageIO.read(new ByteArrayInputStream(png));
        } catch (IOException e) {
            throw new UncheckedIOException("the encoder's PNG does not decode", e);
        }
        Raster raster = image.getRaster();
        assertEquals(1, raster.getNumBands(), "grey PNG");
        byte[] pixels = new byte[image.getWidth() * image.getHeight()];
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                int grey = raster.getSample(x, y, 0);
                assertEquals(0, grey % 255, "grey value at " + x + "," + y);
                pixels[y * image.getWidth() + x] = (byte) (grey / 255);
            }
        }
        return pixels;
    }

    /** The row-major mask of COCO runs, which alternate 0s and 1s (0s first) down the columns. */
    private static byte[] rlePixels(CocoRle rle) {
        byte[] pixels = new byte[rle.width() * rle.height()];
        int index = 0; // column-major position
        int value = 0;
        for (int count : rle.counts()) {
            for (int i = 0; i < count; i++, index++) {
                pixels[(index % rle.height()) * rle.width() + index / rle.height()] = (byte) value;
            }
            value ^= 1;
        }
        assertEquals(pixels.length, index, "runs cover the mask");
        return pixels;
    }

    private static String describe(BinaryMask mask) {
        return mask.width() + "x" + mask.height() + " mask of area " + mask.area();
    }
}
