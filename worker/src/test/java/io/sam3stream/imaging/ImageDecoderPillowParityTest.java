package io.sam3stream.imaging;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

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

    @ParameterizedTest(name = "{0}")
    @MethodSource("fixtures")
    void headerDeclaresTheDecodedSize(DecoderFixtures.Fixture fixture) {
        ImageHeader header = decoder.readHeader(fixture.encoded());

        assertEquals(fixture.width(), header.width());
        assertEquals(fixture.height(), header.height());
    }
}
