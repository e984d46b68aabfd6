package io.sam3stream.reliability;

import io.sam3stream.imaging.TestPngs;
import io.sam3stream.kafka.TestRequests;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import javax.imageio.ImageIO;

/** The images of the bad-input corpus, each derived from the tiny model's golden image or a decoder fixture. */
final class CorpusImages {

    private static final byte[] GOLDEN_PNG = TestRequests.goldenImage();

    private CorpusImages() {}

    static byte[] goldenPng() {
        return GOLDEN_PNG.clone();
    }

    /** The golden image as a baseline JPEG. */
    static byte[] goldenJpeg() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            ImageIO.write(golden(), "jpeg", out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** A decoder fixture of {@code src/test/resources/imaging} (colour types, bit depths, JPEG variants). */
    static byte[] fixture(String name) {
        try (InputStream in = CorpusImages.class.getResourceAsStream("/imaging/" + name)) {
            if (in == null) {
                throw new IllegalStateException("missing test resource imaging/" + name);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The first {@code fraction} of the file. */
    static byte[] truncated(byte[] file, double fraction) {
        return Arrays.copyOf(file, (int) (file.length * fraction));
    }

    /** Bytes with no image signature, the same every run. */
    static byte[] randomBytes(int length) {
        byte[] bytes = new byte[length];
        new Random(10).nextBytes(bytes);
        return bytes;
    }

    /** The golden PNG with the CRC of its first IDAT chunk damaged (the pixel data itself is intact). */
    static byte[] goldenPngWithBadIdatCrc() {
        byte[] png = goldenPng();
        int type = indexOf(png, "IDAT".getBytes(StandardCharsets.US_ASCII));
        int length = ByteBuffer.wrap(png, type - 4, 4).getInt();
        png[type + 4 + length] ^= 0x5a;
        return png;
    }

    /**
     * A PNG that is only a signature and a header declaring {@code width} × {@code height} (8-bit RGB), with one
     * tiny IDAT: what a decompression bomb looks like before its data.
     */
    static byte[] pngDeclaring(long width, long height) {
        return TestPngs.withHeader(width, height, 8, 2, 0).idat(new byte[16]).end().bytes();
    }

    /**
     * The golden image as an animated PNG of two frames (APNG: acTL, fcTL, fdAT chunks around the default image);
     * the default image is the first frame, which is what Pillow's {@code Image.open} shows.
     */
    static byte[] animatedGoldenPng() {
        BufferedImage image = golden();
        int w = image.getWidth();
        int h = image.getHeight();
        byte[] raw = new byte[h * (1 + 3 * w)];
        for (int y = 0, i = 0; y < h; y++) {
            raw[i++] = 0; // filter type None
            for (int x = 0; x < w; x++) {
                int rgb = image.getRGB(x, y);
                raw[i++] = (byte) (rgb >> 16);
                raw[i++] = (byte) (rgb >> 8);
                raw[i++] = (byte) rgb;
            }
        }
        byte[] inverted = raw.clone();
        for (int i = 0; i < inverted.length; i++) {
            inverted[i] = i % (1 + 3 * w) == 0 ? 0 : (byte) ~inverted[i];
        }
        byte[] secondFrame = TestPngs.zlib(inverted);
        return TestPngs.withHeader(w, h, 8, 2, 0)
                .chunk("acTL", ByteBuffer.allocate(8).putInt(2).putInt(0).array())
                .chunk("fcTL", frameControl(0, w, h))
                .idat(raw)
                .chunk("fcTL", frameControl(1, w, h))
                .chunk("fdAT", ByteBuffer.allocate(4 + secondFrame.length).putInt(2).put(secondFrame).array())
                .end().bytes();
    }

    private static byte[] frameControl(int sequence, int w, int h) {
        return ByteBuffer.allocate(26).putInt(sequence).putInt(w).putInt(h).putInt(0).putInt(0)
                .putShort((short) 1).putShort((short) 10).put((byte) 0).put((byte) 0).array();
    }

    private static BufferedImage golden() {
        try {
            return ImageIO.read(new ByteArrayInputStream(GOLDEN_PNG));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static int indexOf(byte[] data, byte[] pattern) {
        outer:
        for (int i = 0; i + pattern.length <= data.length; i++) {
            for (int j = 0; j < pattern.length; j++) {
                if (data[i + j] != pattern[j]) {
                    continue outer;
                }
            }
            return i;
        }
        throw new IllegalArgumentException("pattern not found");
    }
}
