package io.sam3stream.imageheader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;

class ImageHeaderTest {

    private static byte[] encode(String format, int w, int h) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ImageIO.write(new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB), format, out);
        return out.toByteArray();
    }

    @Test
    void readsPngAndJpegSizesWithoutDecoding() throws IOException {
        assertEquals(new ImageHeader(ImageHeader.Format.PNG, 200, 150), ImageHeader.read(encode("png", 200, 150)));
        assertEquals(new ImageHeader(ImageHeader.Format.JPEG, 33, 17), ImageHeader.read(encode("jpg", 33, 17)));
    }

    @Test
    void hugeDeclaredSizeIsReportedNotAllocated() {
        byte[] png = new byte[33];
        byte[] head = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13, 'I', 'H', 'D', 'R',
            0, 1, (byte) 0x86, (byte) 0xa0, 0, 1, (byte) 0x86, (byte) 0xa0};
        System.arraycopy(head, 0, png, 0, head.length);
        ImageHeader h = ImageHeader.read(png);
        assertEquals(100_000, h.width());
        assertEquals(10_000_000_000L, h.pixels());
    }

    @Test
    void refusesOtherFormatsTruncatedHeadersAndZeroSides() throws IOException {
        assertThrows(MalformedImageException.class, () -> ImageHeader.read(new byte[0]));
        assertThrows(MalformedImageException.class, () -> ImageHeader.read("GIF89a....".getBytes()));
        byte[] png = encode("png", 5, 5);
        MalformedImageException cut = assertThrows(MalformedImageException.class,
                () -> ImageHeader.read(Arrays.copyOf(png, 20)));
        assertTrue(cut.getMessage().contains("truncated"));
        byte[] zero = png.clone();
        zero[16] = zero[17] = zero[18] = zero[19] = 0;
        assertThrows(MalformedImageException.class, () -> ImageHeader.read(zero));
        byte[] jpeg = encode("jpg", 5, 5);
        assertThrows(MalformedImageException.class, () -> ImageHeader.read(Arrays.copyOf(jpeg, 4)));
    }
}
