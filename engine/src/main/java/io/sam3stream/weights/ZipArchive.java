package io.sam3stream.weights;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The stored entries of a zip archive, located through its central directory and memory-mapped in place.
 *
 * <p>{@code torch.save} writes every entry uncompressed (and 64-byte aligned), so a tensor's bytes are a window of
 * the file and can be mapped without copying; the full SAM3 checkpoint is 3.45 GB. ZIP64 records are honoured,
 * which archives over 4 GB (or with more than 65,535 entries) need and which PyTorch writes in any case. Entries
 * are located through the central directory only, because PyTorch's local headers carry zero sizes (the sizes
 * follow the data in a descriptor). Compressed and encrypted entries are refused: PyTorch never writes them.
 */
final class ZipArchive implements AutoCloseable {

    private static final int LOCAL_HEADER = 0x04034b50;
    private static final int CENTRAL_HEADER = 0x02014b50;
    private static final int END_OF_CENTRAL_DIRECTORY = 0x06054b50;
    private static final int ZIP64_END_OF_CENTRAL_DIRECTORY = 0x06064b50;
    private static final int ZIP64_LOCATOR = 0x07064b50;
    private static final int ZIP64_EXTRA_FIELD = 0x0001;
    private static final int END_RECORD_BYTES = 22;
    private static final int ZIP64_LOCATOR_BYTES = 20;
    private static final int MAX_COMMENT_BYTES = 0xffff;
    /** A 32-bit size or offset field holding this value is continued in the ZIP64 extra field. */
    private static final long ZIP64_MARKER = 0xffffffffL;
    private static final int STORED = 0;

    private record Entry(String name, int method, int flags, long size, long localHeaderOffset) {}

    private final Path path;
    private final FileChannel channel;
    private final long fileSize;
    private final Map<String, Entry> entries;

    private ZipArchive(Path path, FileChannel channel, long fileSize, Map<String, Entry> entries) {
        this.path = path;
        this.channel = channel;
        this.fileSize = fileSize;
        this.entries = entries;
    }

    /** Opens an archive and reads its central directory. */
    static ZipArchive open(Path path) {
        FileChannel channel;
        try {
            channel = FileChannel.open(path, StandardOpenOption.READ);
        } catch (IOException e) {
            throw new CheckpointException("cannot open " + path + ": " + e.getMessage(), e);
        }
        try {
            long fileSize = channel.size();
            return new ZipArchive(path, channel, fileSize, readCentralDirectory(path, channel, fileSize));
        } catch (IOException | RuntimeException e) {
            closeQuietly(channel, e);
            if (e instanceof CheckpointException ce) {
                throw ce;
            }
            throw new CheckpointException(path + " is not a readable zip archive: " + e, e);
        }
    }

    private static Map<String, Entry> readCentralDirectory(Path path, FileChannel channel, long fileSize)
            throws IOException {
        int tailLength = (int) Math.min(fileSize, END_RECORD_BYTES + MAX_COMMENT_BYTES + ZIP64_LOCATOR_BYTES);
        ByteBuffer tail = read(channel, fileSize - tailLength, tailLength);
        int end = findEndRecord(tail);
        if (end < 0) {
            throw new CheckpointException(path + " is not a zip archive: no end-of-central-directory record");
        }
        long entryCount = tail.getShort(end + 10) & 0xffff;
        long directorySize = tail.getInt(end + 12) & ZIP64_MARKER;
        long directoryOffset = tail.getInt(end + 16) & ZIP64_MARKER;
        if (end >= ZIP64_LOCATOR_BYTES && tail.getInt(end - ZIP64_LOCATOR_BYTES) == ZIP64_LOCATOR) {
            long zip64End = tail.getLong(end - ZIP64_LOCATOR_BYTES + 8);
            ByteBuffer record = read(channel, zip64End, 56);
            if (record.getInt(0) != ZIP64_END_OF_CENTRAL_DIRECTORY) {
                throw new CheckpointException(path + ": ZIP64 locator points at no ZIP64 end record");
            }
            entryCount = record.getLong(32);
            directorySize = record.getLong(40);
            directoryOffset = record.getLong(48);
        }
        // Compared without adding: ZIP64 offsets near 2^63 would wrap the sum and pass.
        if (directoryOffset < 0 || directorySize < 0 || directoryOffset > fileSize
                || directorySize > fileSize - directoryOffset || directorySize > Integer.MAX_VALUE) {
            throw new CheckpointException(path + ": central directory [" + directoryOffset + ", +" + directorySize
                    + ") lies outside the " + fileSize + "-byte file");
        }
        ByteBuffer directory = read(channel, directoryOffset, (int) directorySize);
        Map<String, Entry> entries = new LinkedHashMap<>();
        for (long i = 0; i < entryCount; i++) {
            Entry e = readCentralHeader(path, directory);
            entries.put(e.name(), e);
        }
        return Collections.unmodifiableMap(entries);
    }

    /** Position of the end-of-central-directory record in the tail, scanning back over a possible comment. */
    private static int findEndRecord(ByteBuffer tail) {
        for (int p = tail.limit() - END_RECORD_BYTES; p >= 0; p--) {
            if (tail.getInt(p) == END_OF_CENTRAL_DIRECTORY
                    && p + END_RECORD_BYTES + (tail.getShort(p + 20) & 0xffff) == tail.limit()) {
                return p;
            }
        }
        return -1;
    }

    /** Reads one central-directory header at the buffer's position and advances past it. */
    private static Entry readCentralHeader(Path path, ByteBuffer dir) {
        int at = dir.position();
        if (dir.remaining() < 46 || dir.getInt(at) != CENTRAL_HEADER) {
            throw new CheckpointException(path + ": corrupt central directory at entry offset " + at);
        }
        int flags = dir.getShort(at + 8) & 0xffff;
        int method = dir.getShort(at + 10) & 0xffff;
        long compressedSize = dir.getInt(at + 20) & ZIP64_MARKER;
        long size = dir.getInt(at + 24) & ZIP64_MARKER;
        int nameLength = dir.getShort(at + 28) & 0xffff;
        int extraLength = dir.getShort(at + 30) & 0xffff;
        int commentLength = dir.getShort(at + 32) & 0xffff;
        long localHeaderOffset = dir.getInt(at + 42) & ZIP64_MARKER;
        byte[] name = new byte[nameLength];
        dir.get(at + 46, name);
        ByteBuffer extra = dir.slice(at + 46 + nameLength, extraLength).order(ByteOrder.LITTLE_ENDIAN);
        // The ZIP64 extra field holds, in this order, exactly those values whose 32-bit fields are saturated.
        while (extra.remaining() >= 4) {
            int id = extra.getShort() & 0xffff;
            int length = extra.getShort() & 0xffff;
            ByteBuffer field = extra.slice(extra.position(), length).order(ByteOrder.LITTLE_ENDIAN);
            extra.position(extra.position() + length);
            if (id == ZIP64_EXTRA_FIELD) {
                size = size == ZIP64_MARKER ? field.getLong() : size;
                compressedSize = compressedSize == ZIP64_MARKER ? field.getLong() : compressedSize;
                localHeaderOffset = localHeaderOffset == ZIP64_MARKER ? field.getLong() : localHeaderOffset;
            }
        }
        dir.position(at + 46 + nameLength + extraLength + commentLength);
        String entryName = new String(name, StandardCharsets.UTF_8);
        if (method == STORED && compressedSize != size) {
            throw new CheckpointException(path + ": stored entry " + entryName + " has compressed size "
                    + compressedSize + " but size " + size);
        }
        return new Entry(entryName, method, flags, size, localHeaderOffset);
    }

    /** Names of all entries, in central-directory order. */
    Set<String> names() {
        return entries.keySet();
    }

    /** Size in bytes of an entry. */
    long size(String name) {
        return entry(name).size();
    }

    /** The whole content of an entry, mapped. */
    ByteBuffer contents(String name) {
        return map(name, 0, size(name));
    }

    /**
     * A read-only little-endian mapping of bytes {@code [position, position + length)} of a stored entry.
     *
     * @throws CheckpointException if the range is outside the entry or the entry is compressed
     */
    ByteBuffer map(String name, long position, long length) {
        Entry e = entry(name);
        long start;
        try {
            start = dataStart(e); // first, so that an entry larger than the file is refused as such
        } catch (IOException ex) {
            throw new CheckpointException("cannot read entry " + name + " of " + path + ": " + ex.getMessage(), ex);
        }
        if (position < 0 || length < 0 || position > e.size() - length) {
            throw new CheckpointException(path + ": bytes [" + position + ", +" + length + ") lie outside entry "
                    + name + " of " + e.size() + " bytes");
        }
        if (length > Integer.MAX_VALUE) {
            throw new CheckpointException(path + ": cannot map " + length + " bytes of entry " + name
                    + " at once (at most " + Integer.MAX_VALUE + ")");
        }
        if (length == 0) {
            return ByteBuffer.allocate(0).order(ByteOrder.LITTLE_ENDIAN);
        }
        try {
            return channel.map(FileChannel.MapMode.READ_ONLY, start + position, length)
                    .order(ByteOrder.LITTLE_ENDIAN);
        } catch (IOException ex) {
            throw new CheckpointException("cannot map entry " + name + " of " + path + ": " + ex.getMessage(), ex);
        }
    }

    private Entry entry(String name) {
        Entry e = entries.get(name);
        if (e == null) {
            throw new CheckpointException(path + " has no entry " + name);
        }
        return e;
    }

    /** Offset of an entry's first data byte: after its local header, whose name and extra lengths may differ. */
    private long dataStart(Entry e) throws IOException {
        if ((e.flags() & 1) != 0 || e.method() != STORED) {
            throw new CheckpointException(path + ": entry " + e.name() + " is " + ((e.flags() & 1) != 0
                    ? "encrypted" : "compressed (method " + e.method() + ")")
                    + "; only stored entries, as torch.save writes them, can be read");
        }
        ByteBuffer header = read(channel, e.localHeaderOffset(), 30);
        if (header.getInt(0) != LOCAL_HEADER) {
            throw new CheckpointException(path + ": entry " + e.name() + " has no local header at offset "
                    + e.localHeaderOffset());
        }
        long start = e.localHeaderOffset() + 30 + (header.getShort(26) & 0xffff) + (header.getShort(28) & 0xffff);
        if (e.size() > fileSize - start) {
            throw new CheckpointException(path + ": entry " + e.name() + " runs past the end of the file");
        }
        return start;
    }

    private static ByteBuffer read(FileChannel channel, long position, int length) throws IOException {
        if (position < 0 || position > channel.size() - length) {
            throw new CheckpointException("zip structure at [" + position + ", +" + length
                    + ") lies outside the file");
        }
        ByteBuffer buffer = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
        while (buffer.hasRemaining()) {
            if (channel.read(buffer, position + buffer.position()) < 0) {
                throw new CheckpointException("unexpected end of file");
            }
        }
        return buffer.flip();
    }

    private static void closeQuietly(FileChannel channel, Exception pending) {
        try {
            channel.close();
        } catch (IOException suppressed) {
            pending.addSuppressed(suppressed);
        }
    }

    /** The archive's path, for messages. */
    Path path() {
        return path;
    }

    @Override
    public void close() {
        try {
            channel.close();
        } catch (IOException e) {
            throw new CheckpointException("cannot close " + path, e);
        }
    }
}
