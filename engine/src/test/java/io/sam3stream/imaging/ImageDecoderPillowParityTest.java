package io.sam3stream.imaging;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sam3stream.imageheader.ImageHeader;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every decoder fixture decodes to exactly the bytes of Pillow's {@code Image.open(f).convert("RGB")}. */
class ImageDecoderPillowParityTest {

    private final ImageDecoder decoder = new ImageDecoder(ImageLimits.DEFAULT);

    static List<DecoderFixtures.Fixture> fixtures() {
        return DecoderFixtures.all();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fixtures")
    void decodesToPillowsRgbBytes(DecoderFixtures.Fixture fixture) {
        RgbImage image = decoder.decode(fixture.encoded());

        assertEquals(fixture.width(), image.width(), "width");
        assertEquals(fixture.height(), image.height(), "height");
        assertArrayEquals(fixture.pillowRgb(), image.pixels());
    }

    @Test
    void cameraJpegDecodesToPillowsRgbBytes() {
        // SHA-256 of Image.open("rocket.jpg").convert("RGB").tobytes() with Pillow 9.4.0 / libjpeg-turbo 2.1.5
        String pillowDigest = "3d4435cc745752b7f9724df88c6e18817de3ce7e3d2d71c55f85f7831e68f197";

        RgbImage image = decoder.decode(DecoderFixtures.resource("photos/rocket.jpg"));

        assertEquals(640, image.width());
        assertEquals(427, image.height());
        assertEquals(pillowDigest, Sha256.of(image.pixels()));
    }

    @Test
    void exifOrientationIsNotApplied() {
        // stored 45x37 with orientation 6 ("rotate 90° clockwise to display"): Image.open keeps the stored grid
        RgbImage image = decoder.decode(DecoderFixtures.resource("jpeg_exif_rotated.jpg"));

        assertEquals(45, image.width());
        assertEquals(37, image.height());
    }

    @Test
    void sixteenBitGreyIsClampedTo255NotScaled() {
        // the first row of the fixture holds 0, 1, 255, 256, 300
        RgbImage image = decoder.decode(DecoderFixtures.resource("gray16_small_values.png"));

        int[] firstRow = new int[5];
        for (int x = 0; x < 5; x++) {
            firstRow[x] = image.sample(x, 0, 0);
            assertEquals(firstRow[x], image.sample(x, 0, 2), "grey is replicated");
        }
        assertArrayEquals(new int[] {0, 1, 255, 255, 255}, firstRow);
    }

    @Test
    void transparencyIsDroppedNotComposited() {
        // palette entry 0 = (200, 100, 50), fully transparent through tRNS; one 8-bit index per pixel
        byte[] palettePng = TestPngs.withHeader(2, 1, 8, 3, 0)
                .chunk("PLTE", new byte[] {(byte) 200, 100, 50, 1, 2, 3})
                .chunk("tRNS", new byte[] {0})
                .idat(new byte[] {0, 0, 1}).end().bytes();
        // RGBA pixel (10, 20, 30) with alpha 0
        byte[] rgbaPng = TestPngs.withHeader(1, 1, 8, 6, 0).idat(new byte[] {0, 10, 20, 30, 0}).end().bytes();

        assertArrayEquals(new byte[] {(byte) 200, 100, 50, 1, 2, 3}, decoder.decode(palettePng).pixels());
        assertArrayEquals(new byte[] {10, 20, 30}, decoder.decode(rgbaPng).pixels());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fixtures")
    void facadeHeaderCheckReadsTheDecodedSize(DecoderFixtures.Fixture fixture) {
        ImageHeader header = ImageHeader.read(fixture.encoded());

        assertEquals(fixture.width(), header.width());
        assertEquals(fixture.height(), header.height());
    }
}
