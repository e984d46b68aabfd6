package io.sam3stream.imaging;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Arrays;
import java.util.Random;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;

/** Bad input is refused with the right reason, before any large buffer is allocated. */
class ImageDecoderRejectionTest {

    private final ImageDecoder decoder = new ImageDecoder(ImageLimits.DEFAULT);

    private RejectionReason reasonFor(byte[] data) {
        return assertThrows(ImageRejectedException.class, () -> decoder.decode(data)).reason();
    }

    @Test
    void zeroBytesAreEmpty() {
        assertEquals(RejectionReason.EMPTY, reasonFor(new byte[0]));
    }

    @Test
    void randomBytesAreAnUnsupportedFormat() {
        byte[] noise = new byte[4096];
        new Random(7).nextBytes(noise);
        noise[0] = 0x12; // not the first byte of any signature

        assertEquals(RejectionReason.UNSUPPORTED_FORMAT, reasonFor(noise));
    }

    @Test
    void gifAndBmpAreNamedAndRefused() throws IOException {
        for (String format : new String[] {"gif", "bmp"}) {
            ByteArrayOutputStream encoded = new ByteArrayOutputStream();
            ImageIO.write(new BufferedImage(8, 8, BufferedImage.TYPE_3BYTE_BGR), format, encoded);

            ImageRejectedException e = assertThrows(ImageRejectedException.class,
                    () -> decoder.decode(encoded.toByteArray()));

            assertEquals(RejectionReason.UNSUPPORTED_FORMAT, e.reason());
            assertTrue(e.getMessage().contains(format.toUpperCase()), e.getMessage());
        }
    }

    @Test
    void pngCutAnywhereIsTruncated() {
        byte[] png = DecoderFixtures.resource("rgb8.png");
        int iendLength = 12;
        // inside the signature, inside IHDR, inside the first IDAT, inside the last IDAT
        for (int length : new int[] {5, 20, 60, png.length - iendLength - 10}) {
            assertEquals(RejectionReason.TRUNCATED, reasonFor(Arrays.copyOf(png, length)), "cut at " + length);
        }
    }

    @Test
    void pngMissingOnlyItsEndChunkStillDecodesAsInPillow() {
        byte[] png = DecoderFixtures.resource("rgb8.png");
        byte[] withoutEnd = Arrays.copyOf(png, png.length - 12);

        assertArrayEquals(decoder.decode(png).pixels(), decoder.decode(withoutEnd).pixels());
    }

    @Test
    void jpegCutInItsHeaderOrItsScanIsTruncated() {
        byte[] jpeg = DecoderFixtures.resource("photos/rocket.jpg");
        for (int length : new int[] {2, 100, jpeg.length / 2, jpeg.length - 2}) {
            assertEquals(RejectionReason.TRUNCATED, reasonFor(Arrays.copyOf(jpeg, length)), "cut at " + length);
        }
    }

    @Test
    void progressiveJpegCutInItsScansIsTruncated() {
        byte[] jpeg = DecoderFixtures.resource("jpeg_progressive.jpg");

        assertEquals(RejectionReason.TRUNCATED, reasonFor(Arrays.copyOf(jpeg, jpeg.length * 3 / 4)));
    }

    @Test
    void pngWithABadCrcIsCorrupt() {
        byte[] png = DecoderFixtures.resource("rgb8.png").clone();
        png[8 + 8 + 3] ^= 0x01; // a width byte inside IHDR: the chunk's CRC no longer matches

        assertEquals(RejectionReason.CORRUPT, reasonFor(png));
    }

    @Test
    void pngWithGarbledCompressedDataIsCorrupt() {
        byte[] notZlib = new byte[64];
        Arrays.fill(notZlib, (byte) 0x5a);
        byte[] png = TestPngs.withHeader(4, 4, 8, 2, 0).chunk("IDAT", notZlib).end().bytes();

        assertEquals(RejectionReason.CORRUPT, reasonFor(png));
    }

    @Test
    void pngWhoseImageDataEndsEarlyIsCorrupt() {
        byte[] oneRowOfFour = new byte[1 + 4 * 3];
        byte[] png = TestPngs.withHeader(4, 4, 8, 2, 0).idat(oneRowOfFour).end().bytes();

        assertEquals(RejectionReason.CORRUPT, reasonFor(png));
    }

    @Test
    void pngWithAnUnknownFilterTypeIsCorrupt() {
        byte[] row = new byte[1 + 2 * 3];
        row[0] = 5;
        byte[] png = TestPngs.withHeader(2, 1, 8, 2, 0).idat(row).end().bytes();

        assertEquals(RejectionReason.CORRUPT, reasonFor(png));
    }

    @Test
    void pngWithoutImageDataIsCorrupt() {
        assertEquals(RejectionReason.CORRUPT, reasonFor(TestPngs.withHeader(2, 2, 8, 2, 0).end().bytes()));
    }

    @Test
    void pngWithAnInvalidBitDepthForItsColourTypeIsCorrupt() {
        // RGB allows 8 and 16 bits only
        assertEquals(RejectionReason.CORRUPT, reasonFor(TestPngs.withHeader(2, 2, 4, 2, 0).end().bytes()));
    }

    @Test
    void pngDeclaringAZeroSideIsRefused() {
        byte[] row = new byte[1 + 7 * 3];
        assertEquals(RejectionReason.ZERO_SIDE, reasonFor(TestPngs.withHeader(0, 7, 8, 2, 0).idat(row).end().bytes()));
        assertEquals(RejectionReason.ZERO_SIDE, reasonFor(TestPngs.withHeader(7, 0, 8, 2, 0).end().bytes()));
    }

    @Test
    void jpegDeclaringAZeroHeightIsRefused() {
        assertEquals(RejectionReason.ZERO_SIDE, reasonFor(jpegFrameOnly(0xc0, 8, 0, 640, 3)));
    }

    @Test
    void pngBombDeclaring100000SquaredIsRefusedFromItsHeaderAlone() {
        // 16 MB of zero scanlines deflate to a few KB: a decoder that trusted the header would allocate 30 GB
        byte[] bomb = TestPngs.withHeader(100_000, 100_000, 8, 2, 0).idat(new byte[16 << 20]).end().bytes();
        assertTrue(bomb.length < 100_000, "the bomb itself is small: " + bomb.length);

        long allocated = assertTimeoutPreemptively(Duration.ofSeconds(2), () -> allocatedBy(() -> {
            ImageRejectedException e = assertThrows(ImageRejectedException.class, () -> decoder.decode(bomb));
            assertEquals(RejectionReason.SIDE_TOO_LARGE, e.reason());
            assertTrue(e.getMessage().contains("100000x100000"), e.getMessage());
        }));
        assertTrue(allocated < (1 << 20), "decoding the bomb allocated " + allocated + " bytes");
    }

    @Test
    void jpegDeclaringSidesOverTheLimitIsRefusedFromItsHeader() {
        assertEquals(RejectionReason.SIDE_TOO_LARGE, reasonFor(jpegFrameOnly(0xc0, 8, 65_535, 65_535, 3)));
    }

    @Test
    void sideLimitIsConfigurable() {
        ImageDecoder strict = new ImageDecoder(ImageLimits.ofMaxSide(12));
        byte[] thirteenWide = DecoderFixtures.resource("gray8.png"); // 13x11

        ImageRejectedException e = assertThrows(ImageRejectedException.class, () -> strict.decode(thirteenWide));

        assertEquals(RejectionReason.SIDE_TOO_LARGE, e.reason());
        assertTrue(e.getMessage().contains("13x11") && e.getMessage().contains("12"), e.getMessage());
    }

    @Test
    void pixelLimitIsCheckedSeparatelyFromTheSideLimit() {
        ImageDecoder strict = new ImageDecoder(new ImageLimits(4096, 13 * 11 - 1));

        ImageRejectedException e = assertThrows(ImageRejectedException.class,
                () -> strict.decode(DecoderFixtures.resource("gray8.png")));

        assertEquals(RejectionReason.TOO_MANY_PIXELS, e.reason());
    }

    @Test
    void limitsBeyondTheLargestDecodableImageAreRefused() {
        assertThrows(IllegalArgumentException.class,
                () -> new ImageLimits(100_000, ImageLimits.LARGEST_DECODABLE_PIXELS + 1));
        assertEquals(ImageLimits.LARGEST_DECODABLE_PIXELS, ImageLimits.ofMaxSide(100_000).maxPixels());
    }

    @Test
    void cmykJpegIsAnUnsupportedEncoding() {
        ImageRejectedException e = assertThrows(ImageRejectedException.class,
                () -> decoder.decode(DecoderFixtures.resource("jpeg_cmyk.jpg")));

        assertEquals(RejectionReason.UNSUPPORTED_ENCODING, e.reason());
        assertTrue(e.getMessage().contains("CMYK"), e.getMessage());
    }

    @Test
    void twelveBitAndArithmeticJpegsAreUnsupportedEncodings() {
        assertEquals(RejectionReason.UNSUPPORTED_ENCODING, reasonFor(jpegFrameOnly(0xc1, 12, 8, 8, 3)));
        assertEquals(RejectionReason.UNSUPPORTED_ENCODING, reasonFor(jpegFrameOnly(0xc9, 8, 8, 8, 3)));
        assertEquals(RejectionReason.UNSUPPORTED_ENCODING, reasonFor(jpegFrameOnly(0xc3, 8, 8, 8, 3)));
    }

    /** SOI, a frame header (SOFn) with the given fields and the header of a first scan, without scan data. */
    private static byte[] jpegFrameOnly(int sofMarker, int precision, int height, int width, int components) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(new byte[] {(byte) 0xff, (byte) 0xd8});
        int frameLength = 8 + 3 * components;
        out.writeBytes(new byte[] {(byte) 0xff, (byte) sofMarker, (byte) (frameLength >> 8), (byte) frameLength,
            (byte) precision, (byte) (height >> 8), (byte) height, (byte) (width >> 8), (byte) width,
            (byte) components});
        for (int c = 1; c <= components; c++) {
            out.writeBytes(new byte[] {(byte) c, 0x11, 0});
        }
        int scanLength = 6 + 2 * components;
        out.writeBytes(new byte[] {(byte) 0xff, (byte) 0xda, (byte) (scanLength >> 8), (byte) scanLength,
            (byte) components});
        for (int c = 1; c <= components; c++) {
            out.writeBytes(new byte[] {(byte) c, 0});
        }
        out.writeBytes(new byte[] {0, 63, 0});
        return out.toByteArray();
    }

    /** Bytes allocated on this thread while running {@code body}. */
    private static long allocatedBy(Runnable body) {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long id = Thread.currentThread().getId();
        long before = threads.getThreadAllocatedBytes(id);
        body.run();
        return threads.getThreadAllocatedBytes(id) - before;
    }
}
