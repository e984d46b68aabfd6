package io.sam3stream.weights;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.CRC32;

/**
 * Builds a {@code torch.save}-style zip archive byte by byte: {@code <root>/data.pkl}, {@code <root>/data/<key>}
 * entries, all stored. With {@code zip64} every size and offset is moved into ZIP64 records, as archives over
 * 4 GB need them.
 */
public final class TorchArchiveBuilder {

    private static final long SATURATED = 0xffffffffL;

    private final String root;
    private final Map<String, byte[]> entries = new LinkedHashMap<>();
    private boolean zip64;

    public TorchArchiveBuilder(String root) {
        this.root = root;
    }

    public TorchArchiveBuilder pickle(byte[] pickle) {
        return entry("data.pkl", pickle);
    }

    public TorchArchiveBuilder storage(String key, byte[] data) {
        return entry("data/" + key, data);
    }

    /** A float32 storage holding the given values. */
    public TorchArchiveBuilder floatStorage(String key, float... values) {
        ByteBuffer b = ByteBuffer.allocate(values.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        b.asFloatBuffer().put(values);
        return storage(key, b.array());
    }

    public TorchArchiveBuilder entry(String relativeName, byte[] data) {
        entries.put(root + "/" + relativeName, data);
        return this;
    }

    public TorchArchiveBuilder zip64() {
        this.zip64 = true;
        return this;
    }

    public Path writeTo(Path file) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream directory = new ByteArrayOutputStream();
        for (Map.Entry<String, byte[]> e : entries.entrySet()) {
            byte[] name = e.getKey().getBytes(StandardCharsets.UTF_8);
            byte[] data = e.getValue();
            CRC32 crc = new CRC32();
            crc.update(data);
            long offset = out.size();
            // local header; a 7-byte padding extra field shifts the data, which readers must honour
            write(out, 4, 0x04034b50, 2, 20, 2, 0, 2, 0, 4, 0, 4, crc.getValue(), 4, data.length, 4, data.length,
                    2, name.length, 2, 11);
            out.writeBytes(name);
            write(out, 2, 0x4146, 2, 7);
            out.writeBytes(new byte[7]);
            out.writeBytes(data);
            byte[] extra = zip64 ? zip64Extra(data.length, offset) : new byte[0];
            long shownSize = zip64 ? SATURATED : data.length;
            write(directory, 4, 0x02014b50, 2, 45, 2, 45, 2, 0, 2, 0, 4, 0, 4, crc.getValue(), 4, shownSize,
                    4, shownSize, 2, name.length, 2, extra.length, 2, 0, 2, 0, 2, 0, 4, 0, 4,
                    zip64 ? SATURATED : offset);
            directory.writeBytes(name);
            directory.writeBytes(extra);
        }
        long directoryOffset = out.size();
        out.writeBytes(directory.toByteArray());
        if (zip64) {
            long zip64End = out.size();
            write(out, 4, 0x06064b50, 8, 44, 2, 45, 2, 45, 4, 0, 4, 0, 8, entries.size(), 8, entries.size(),
                    8, directory.size(), 8, directoryOffset);
            write(out, 4, 0x07064b50, 4, 0, 8, zip64End, 4, 1);
            write(out, 4, 0x06054b50, 2, 0, 2, 0, 2, 0xffff, 2, 0xffff, 4, SATURATED, 4, SATURATED, 2, 0);
        } else {
            write(out, 4, 0x06054b50, 2, 0, 2, 0, 2, entries.size(), 2, entries.size(), 4, directory.size(),
                    4, directoryOffset, 2, 0);
        }
        return Files.write(file, out.toByteArray());
    }

    private static byte[] zip64Extra(long size, long offset) {
        ByteArrayOutputStream extra = new ByteArrayOutputStream();
        write(extra, 2, 0x0001, 2, 24, 8, size, 8, size, 8, offset);
        return extra.toByteArray();
    }

    /** Writes little-endian fields given as (width in bytes, value) pairs. */
    private static void write(ByteArrayOutputStream out, long... widthValuePairs) {
        for (int i = 0; i < widthValuePairs.length; i += 2) {
            long value = widthValuePairs[i + 1];
            for (int b = 0; b < widthValuePairs[i]; b++) {
                out.write((int) (value >>> (8 * b)));
            }
        }
    }
}
