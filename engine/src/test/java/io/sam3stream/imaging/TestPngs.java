package io.sam3stream.imaging;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/** Hand-assembled PNG files for error-path tests: any chunk, any header field, correct CRCs. */
public final class TestPngs {

    static final byte[] SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    private TestPngs() {
        out.writeBytes(SIGNATURE);
    }

    /** A file starting with the signature and an IHDR chunk. */
    public static TestPngs withHeader(long width, long height, int bitDepth, int colorType, int interlace) {
        ByteBuffer ihdr = ByteBuffer.allocate(13);
        ihdr.putInt((int) width).putInt((int) height).put((byte) bitDepth).put((byte) colorType).put((byte) 0)
                .put((byte) 0).put((byte) interlace);
        return new TestPngs().chunk("IHDR", ihdr.array());
    }

    public TestPngs chunk(String type, byte[] data) {
        byte[] typeBytes = type.getBytes(StandardCharsets.US_ASCII);
        CRC32 crc = new CRC32();
        crc.update(typeBytes);
        crc.update(data);
        out.writeBytes(ByteBuffer.allocate(4).putInt(data.length).array());
        out.writeBytes(typeBytes);
        out.writeBytes(data);
        out.writeBytes(ByteBuffer.allocate(4).putInt((int) crc.getValue()).array());
        return this;
    }

    /** One IDAT chunk holding {@code raw} (filter bytes included) zlib-compressed. */
    public TestPngs idat(byte[] raw) {
        return chunk("IDAT", zlib(raw));
    }

    public TestPngs end() {
        return chunk("IEND", new byte[0]);
    }

    public byte[] bytes() {
        return out.toByteArray();
    }

    public static byte[] zlib(byte[] raw) {
        Deflater deflater = new Deflater(9);
        deflater.setInput(raw);
        deflater.finish();
        ByteArrayOutputStream compressed = new ByteArrayOutputStream();
        byte[] buffer = new byte[1 << 16];
        while (!deflater.finished()) {
            compressed.write(buffer, 0, deflater.deflate(buffer));
        }
        deflater.end();
        return compressed.toByteArray();
    }
}
