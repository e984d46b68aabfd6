package io.sam3stream.imaging;

import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;

/**
 * Walks the chunks of a PNG file held in memory, checking each chunk's bounds and CRC before handing it out. A
 * chunk that runs past the end of the data is reported as {@link RejectionReason#TRUNCATED}; a bad CRC or an
 * impossible length or type as {@link RejectionReason#CORRUPT}.
 */
final class PngChunkReader {

    static final int SIGNATURE_LENGTH = 8;
    static final int IHDR = typeCode("IHDR");
    static final int PLTE = typeCode("PLTE");
    static final int IDAT = typeCode("IDAT");
    static final int IEND = typeCode("IEND");

    /** One chunk: its four-letter type and where its data lies in the file. */
    record Chunk(int type, int offset, int length) {
        String name() {
            return typeName(type);
        }
    }

    private final byte[] data;
    private final CRC32 crc = new CRC32();
    private int position = SIGNATURE_LENGTH;

    /** @param data a whole PNG file whose signature has been checked */
    PngChunkReader(byte[] data) {
        this.data = data;
    }

    byte[] data() {
        return data;
    }

    /** A reader at this one's position, over the same data, that moves on independently of it. */
    PngChunkReader fork() {
        PngChunkReader ahead = new PngChunkReader(data);
        ahead.position = position;
        return ahead;
    }

    /** The next chunk, CRC-checked. */
    Chunk next() {
        if (position + 8 > data.length) {
            throw new ImageRejectedException(RejectionReason.TRUNCATED,
                    "PNG file is truncated: it ends at byte " + data.length + " where a chunk should start");
        }
        long length = readUnsignedInt(data, position);
        int type = readInt(data, position + 4);
        if (!isValidType(type)) {
            throw new ImageRejectedException(RejectionReason.CORRUPT,
                    "PNG file is corrupt: invalid chunk type at byte " + position);
        }
        if (length > Integer.MAX_VALUE) {
            throw new ImageRejectedException(RejectionReason.CORRUPT,
                    "PNG file is corrupt: chunk " + typeName(type) + " declares " + length + " bytes");
        }
        long end = position + 12L + length;
        if (end > data.length) {
            throw new ImageRejectedException(RejectionReason.TRUNCATED, "PNG file is truncated: chunk "
                    + typeName(type) + " needs " + (end - data.length) + " more bytes than the file has");
        }
        int dataOffset = position + 8;
        crc.reset();
        crc.update(data, position + 4, 4 + (int) length);
        if ((int) crc.getValue() != readInt(data, dataOffset + (int) length)) {
            throw new ImageRejectedException(RejectionReason.CORRUPT,
                    "PNG file is corrupt: CRC mismatch in chunk " + typeName(type) + " at byte " + position);
        }
        position = (int) end;
        return new Chunk(type, dataOffset, (int) length);
    }

    static int readInt(byte[] b, int offset) {
        return ((b[offset] & 0xff) << 24) | ((b[offset + 1] & 0xff) << 16) | ((b[offset + 2] & 0xff) << 8)
                | (b[offset + 3] & 0xff);
    }

    static long readUnsignedInt(byte[] b, int offset) {
        return readInt(b, offset) & 0xffffffffL;
    }

    private static boolean isValidType(int type) {
        for (int shift = 24; shift >= 0; shift -= 8) {
            int c = (type >>> shift) & 0xff;
            if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'))) {
                return false;
            }
        }
        return true;
    }

    private static int typeCode(String name) {
        return readInt(name.getBytes(StandardCharsets.US_ASCII), 0);
    }

    private static String typeName(int type) {
        return new String(new byte[] {(byte) (type >>> 24), (byte) (type >>> 16), (byte) (type >>> 8), (byte) type},
                StandardCharsets.US_ASCII);
    }
}
