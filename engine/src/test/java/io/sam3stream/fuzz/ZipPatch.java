package io.sam3stream.fuzz;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Overwrites fields of a zip archive's records in place, to make archives that lie about their sizes, counts and
 * offsets. Offsets of fields are those of the zip specification (APPNOTE 4.3.7, 4.3.12, 4.3.14, 4.3.16).
 */
final class ZipPatch {

    /** Central-directory header fields, relative to the header's signature. */
    static final int CENTRAL_COMPRESSED_SIZE = 20;
    static final int CENTRAL_SIZE = 24;
    /** End-of-central-directory record fields. */
    static final int END_ENTRIES_ON_DISK = 8;
    static final int END_ENTRIES = 10;
    /** ZIP64 end-of-central-directory record fields. */
    static final int ZIP64_END_ENTRIES = 32;
    static final int ZIP64_END_DIRECTORY_SIZE = 40;
    static final int ZIP64_END_DIRECTORY_OFFSET = 48;
    /** The ZIP64 extra field of a central header, relative to the end of the entry name: id, length, size, ... */
    static final int ZIP64_EXTRA_SIZE = 4;
    static final int ZIP64_EXTRA_COMPRESSED_SIZE = 12;

    private static final int CENTRAL_HEADER = 0x02014b50;
    private static final int END_RECORD = 0x06054b50;
    private static final int ZIP64_END_RECORD = 0x06064b50;

    private final byte[] zip;

    ZipPatch(byte[] zip) {
        this.zip = zip.clone();
    }

    /** Offset of the central-directory header of entry {@code name}. */
    int centralHeader(String name) {
        byte[] wanted = name.getBytes(StandardCharsets.UTF_8);
        for (int at = 0; at + 46 + wanted.length <= zip.length; at++) {
            if (readInt(at) == CENTRAL_HEADER && (int) readLittleEndian(at + 28, 2) == wanted.length
                    && Arrays.equals(zip, at + 46, at + 46 + wanted.length, wanted, 0, wanted.length)) {
                return at;
            }
        }
        throw new IllegalArgumentException("no central header for " + name);
    }

    /** Offset of the first byte after entry {@code name}'s file name in its central header: its extra fields. */
    int centralExtra(String name) {
        return centralHeader(name) + 46 + name.getBytes(StandardCharsets.UTF_8).length;
    }

    /** Offset of the end-of-central-directory record. */
    int endRecord() {
        return last(END_RECORD);
    }

    /** Offset of the ZIP64 end-of-central-directory record. */
    int zip64EndRecord() {
        return last(ZIP64_END_RECORD);
    }

    /** Writes {@code value} as a little-endian field of {@code width} bytes at {@code at}. */
    ZipPatch put(int at, int width, long value) {
        for (int b = 0; b < width; b++) {
            zip[at + b] = (byte) (value >>> (8 * b));
        }
        return this;
    }

    byte[] bytes() {
        return zip.clone();
    }

    private int last(int signature) {
        for (int at = zip.length - 4; at >= 0; at--) {
            if (readInt(at) == signature) {
                return at;
            }
        }
        throw new IllegalArgumentException(String.format("no record with signature 0x%08x", signature));
    }

    private int readInt(int at) {
        return (int) readLittleEndian(at, 4);
    }

    private long readLittleEndian(int at, int width) {
        long value = 0;
        for (int b = width - 1; b >= 0; b--) {
            value = (value << 8) | (zip[at + b] & 0xff);
        }
        return value;
    }
}
