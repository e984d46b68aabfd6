package io.sam3stream.imaging;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.awt.image.BufferedImage;
import java.awt.image.Raster;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Random;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;

/** The PNG writer produces files that the JDK's independent decoder reads back pixel for pixel. */
class PngEncoderTest {

    @Test
    void maskBecomesAnEightBitGreyPngOfZeroAnd255() throws IOException {
        int width = 37;
        int height = 23;
        byte[] pixels = new byte[width * height];
        Random random = new Random(5);
        for (int i = 0; i < pixels.length; i++) {
            pixels[i] = (byte) random.nextInt(2);
        }

        BufferedImage decoded = ImageIO.read(new ByteArrayInputStream(
                PngEncoder.encodeMask(new BinaryMask(width, height, pixels))));

        assertEquals(BufferedImage.TYPE_BYTE_GRAY, decoded.getType());
        assertEquals(8, decoded.getColorModel().getComponentSize(0));
        Raster raster = decoded.getRaster();
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < width; x++) {
                assertEquals(pixels[y * width + x] * 255, raster.getSample(x, y, 0), "pixel " + x + "," + y);
            }
        }
    }

    @Test
    void rgbImageRoundTripsThroughTheJdkDecoderAndOurs() throws IOException {
        int width = 19;
        int height = 11;
        byte[] rgb = new byte[width * height * 3];
        new Random(6).nextBytes(rgb);
        RgbImage image = new RgbImage(width, height, rgb);
        byte[] png = PngEncoder.encodeRgb(image);

        BufferedImage decoded = ImageIO.read(new ByteArrayInputStream(png));
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < width; x++) {
                int expected = (image.sample(x, y, 0) << 16) | (image.sample(x, y, 1) << 8) | image.sample(x, y, 2);
                assertEquals(expected, decoded.getRGB(x, y) & 0xffffff, "pixel " + x + "," + y);
            }
        }
        assertArrayEquals(rgb, new ImageDecoder(ImageLimits.DEFAULT).decode(png).pixels());
    }
}
