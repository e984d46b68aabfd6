package io.sam3stream.imaging;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sam3stream.device.ZlibInflate;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The PNG decoder's two ways to inflate the image data, in one call through libdeflate or scanline by scanline
 * through the JDK's zlib, give the same pixels for every fixture and the same rejection for every damaged file:
 * whatever the one-call path refuses, the streaming path decodes or reports.
 */
class PngInflatePathsTest {

    static List<DecoderFixtures.Fixture> pngFixtures() {
        return DecoderFixtures.all().stream().filter(f -> f.file().endsWith(".png")).toList();
    }

    private static void assumeLibdeflate() {
        assumeTrue(ZlibInflate.available(), "SKIPPED: the one-call inflate needs libdeflate (libdeflate.so.0)");
    }

    @ParameterizedTest
    @MethodSource("pngFixtures")
    void bothPathsDecodeEveryFixtureToTheSamePixels(DecoderFixtures.Fixture fixture) {
        assumeLibdeflate();
        byte[] png = fixture.encoded();
        RgbImage whole = PngDecoder.decode(png, ImageLimits.DEFAULT, true);
        RgbImage streamed = PngDecoder.decode(png, ImageLimits.DEFAULT, false);
        assertArrayEquals(streamed.pixels(), whole.pixels(), fixture.toString());
        assertArrayEquals(fixture.pillowRgb(), whole.pixels(), fixture.toString());
    }

    @Test
    void imageDataSplitOverManyChunksIsInflatedWhole() {
        assumeLibdeflate();
        int width = 37;
        int height = 23;
        byte[] raw = new byte[(width * 3 + 1) * height];
        for (int i = 0; i < raw.length; i++) {
            raw[i] = i % (width * 3 + 1) == 0 ? (byte) (i % 5) : (byte) (i * 31 + i / 7);
        }
        byte[] compressed = TestPngs.zlib(raw);
        TestPngs split = TestPngs.withHeader(width, height, 8, 2, 0);
        for (int at = 0; at < compressed.length; at += 97) {
            split.chunk("IDAT", Arrays.copyOfRange(compressed, at, Math.min(compressed.length, at + 97)));
        }
        byte[] png = split.end().bytes();
        byte[] oneChunk = TestPngs.withHeader(width, height, 8, 2, 0).idat(raw).end().bytes();
        assertArrayEquals(PngDecoder.decode(oneChunk, ImageLimits.DEFAULT, false).pixels(),
                PngDecoder.decode(png, ImageLimits.DEFAULT, true).pixels());
    }

    /** Both paths decode {@code png} to the same pixels, or both reject it with the same message. */
    private static void assertSameOutcome(byte[] png, String what) {
        RgbImage streamed;
        try {
            streamed = PngDecoder.decode(png, ImageLimits.DEFAULT, false);
        } catch (ImageRejectedException e) {
            ImageRejectedException whole = assertThrows(ImageRejectedException.class,
                    () -> PngDecoder.decode(png, ImageLimits.DEFAULT, true), what);
            assertEquals(e.getMessage(), whole.getMessage(), what);
            return;
        }
        assertArrayEquals(streamed.pixels(), PngDecoder.decode(png, ImageLimits.DEFAULT, true).pixels(), what);
    }

    @Test
    void damagedOrUnusualImageDataHasTheSameOutcomeOnBothPaths() {
        byte[] fourRows = new byte[(4 * 3 + 1) * 4];
        byte[] compressed = TestPngs.zlib(fourRows);
        byte[] badChecksum = compressed.clone();
        badChecksum[badChecksum.length - 1] ^= 0x55;
        byte[] badFilter = fourRows.clone();
        badFilter[3 * 13] = 9;
        assertSameOutcome(TestPngs.withHeader(4, 4, 8, 2, 0).chunk("IDAT", new byte[] {1, 2, 3, 4, 5}).end().bytes(),
                "garbled compressed data");
        assertSameOutcome(TestPngs.withHeader(4, 4, 8, 2, 0).idat(Arrays.copyOf(fourRows, fourRows.length - 13))
                .end().bytes(), "a stream a row short");
        assertSameOutcome(TestPngs.withHeader(4, 4, 8, 2, 0)
                .chunk("IDAT", Arrays.copyOf(compressed, compressed.length - 6)).end().bytes(), "a cut stream");
        assertSameOutcome(TestPngs.withHeader(4, 4, 8, 2, 0).chunk("IDAT", badChecksum).end().bytes(),
                "a bad checksum");
        assertSameOutcome(TestPngs.withHeader(4, 4, 8, 2, 0).idat(badFilter).end().bytes(), "an unknown filter");
        assertSameOutcome(TestPngs.withHeader(4, 4, 8, 2, 0).idat(Arrays.copyOf(fourRows, fourRows.length + 40))
                .end().bytes(), "more data than the image holds");
        byte[] png = TestPngs.withHeader(4, 4, 8, 2, 0).idat(fourRows).end().bytes();
        byte[] damagedEnd = png.clone();
        damagedEnd[damagedEnd.length - 1] ^= 0x01;
        assertSameOutcome(damagedEnd, "a bad CRC on IEND, after the image data");
        assertSameOutcome(Arrays.copyOf(png, png.length - 12), "no IEND");
    }
}
