package io.sam3stream.facade.testing;

import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.zip.CRC32;

/**
 * Images as the facade sees them: it reads only the header, so a PNG signature and IHDR chunk of the wanted size
 * is a complete test image for it (the fake worker reads the same header to echo the size back).
 */
public final class TestImages {

    private TestImages() {
    }

    /** The signature and IHDR chunk of an 8-bit RGB PNG of the given size. */
    public static byte[] pngHeader(int width, int height) {
        ByteBuffer ihdr = ByteBuffer.allocate(17).put(new byte[] {'I', 'H', 'D', 'R'})
                .putInt(width).putInt(height).put((byte) 8).put((byte) 2).put((byte) 0).put((byte) 0).put((byte) 0);
        CRC32 crc = new CRC32();
        crc.update(ihdr.array());
        return ByteBuffer.allocate(8 + 4 + 17 + 4)
                .put(new byte[] {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'})
                .putInt(13).put(ihdr.array()).putInt((int) crc.getValue()).array();
    }

    /** {@link #pngHeader} padded with zero bytes to {@code size} bytes. */
    public static byte[] pngOfSize(int width, int height, int size) {
        byte[] header = pngHeader(width, height);
        byte[] padded = new byte[size];
        System.arraycopy(header, 0, padded, 0, header.length);
        return padded;
    }

    public static String base64(byte[] bytes) {
        return Base64.getEncoder().encodeToString(bytes);
    }
}
