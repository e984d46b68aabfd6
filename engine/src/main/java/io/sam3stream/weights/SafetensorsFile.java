package io.sam3stream.weights;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A safetensors file read through memory maps: an 8-byte little-endian header length, a JSON header naming each
 * tensor's dtype, shape and byte range, then the raw data. The header is validated in full before any tensor is
 * handed out; a file whose ranges run past its end, overlap the header or each other, or disagree with dtype × shape
 * is refused.
 * Tensors are exposed under the names stored in the file (no renaming: see {@link CheckpointLoader}).
 */
public final class SafetensorsFile implements WeightSource {

    /** Headers larger than this are refused before they are read (the real SAM3 header is under 200 KB). */
    private static final long MAX_HEADER_BYTES = 100L << 20;

    private record Entry(DType dtype, long[] shape, long begin, long end) {}

    private final Path path;
    private final FileChannel channel;
    private final long dataStart;
    private final Map<String, Entry> entries;
    private final Map<String, String> metadata;

    private SafetensorsFile(Path path, FileChannel channel, long dataStart, Map<String, Entry> entries,
            Map<String, String> metadata) {
        this.path = path;
        this.channel = channel;
        this.dataStart = dataStart;
        this.entries = entries;
        this.metadata = metadata;
    }

    /** Opens and validates a safetensors file. */
    public static SafetensorsFile open(Path path) {
        FileChannel channel;
        try {
            channel = FileChannel.open(path, StandardOpenOption.READ);
        } catch (IOException e) {
            throw new CheckpointException("cannot open " + path + ": " + e.getMessage(), e);
        }
        try {
            return parse(path, channel);
        } catch (RuntimeException | IOException e) {
            try {
                channel.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            if (e instanceof CheckpointException ce) {
                throw ce;
            }
            throw new CheckpointException(path + " is not a valid safetensors file: " + e.getMessage(), e);
        }
    }

    private static SafetensorsFile parse(Path path, FileChannel channel) throws IOException {
        long fileSize = channel.size();
        if (fileSize < 8) {
            throw new CheckpointException(path + " is not a safetensors file: only " + fileSize + " bytes");
        }
        ByteBuffer lengthBytes = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
        readFully(channel, lengthBytes, 0);
        long headerLength = lengthBytes.getLong(0);
        if (headerLength <= 0 || headerLength > MAX_HEADER_BYTES || headerLength > fileSize - 8) {
            throw new CheckpointException(path + " has an invalid safetensors header length " + headerLength
                    + " (file size " + fileSize + ")");
        }
        ByteBuffer headerBytes = ByteBuffer.allocate((int) headerLength);
        readFully(channel, headerBytes, 8);
        JsonNode header = new ObjectMapper().readTree(new String(headerBytes.array(), StandardCharsets.UTF_8));
        if (header == null || !header.isObject()) {
            throw new CheckpointException(path + ": safetensors header is not a JSON object");
        }
        long dataStart = 8 + headerLength;
        long dataLength = fileSize - dataStart;
        Map<String, Entry> entries = new LinkedHashMap<>();
        Map<String, String> metadata = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> field : header.properties()) {
            String name = field.getKey();
            JsonNode node = field.getValue();
            if (name.equals("__metadata__")) {
                node.properties().forEach(m -> metadata.put(m.getKey(), m.getValue().asText()));
                continue;
            }
            entries.put(name, parseEntry(path, name, node, dataLength));
        }
        requireDisjoint(path, entries);
        return new SafetensorsFile(path, channel, dataStart, Collections.unmodifiableMap(entries),
                Collections.unmodifiableMap(metadata));
    }

    private static Entry parseEntry(Path path, String name, JsonNode node, long dataLength) {
        JsonNode dtypeNode = node.get("dtype");
        JsonNode shapeNode = node.get("shape");
        JsonNode offsets = node.get("data_offsets");
        if (dtypeNode == null || shapeNode == null || !shapeNode.isArray() || offsets == null
                || !offsets.isArray() || offsets.size() != 2) {
            throw new CheckpointException(path + ": tensor " + name + " has an incomplete header entry");
        }
        DType dtype = DType.fromSafetensors(dtypeNode.asText());
        long[] shape = new long[shapeNode.size()];
        for (int i = 0; i < shape.length; i++) {
            shape[i] = shapeNode.get(i).asLong(-1);
            if (shape[i] < 0) {
                throw new CheckpointException(path + ": tensor " + name + " has a negative dimension");
            }
        }
        long begin = offsets.get(0).asLong(-1);
        long end = offsets.get(1).asLong(-1);
        if (begin < 0 || end < begin || end > dataLength) {
            throw new CheckpointException(path + ": tensor " + name + " has byte range [" + begin + ", " + end
                    + ") outside the " + dataLength + " data bytes of the file");
        }
        long expected;
        try {
            expected = Math.multiplyExact(RawTensor.elementCount(shape), dtype.byteSize());
        } catch (ArithmeticException e) {
            throw new CheckpointException(path + ": tensor " + name + " has shape " + Arrays.toString(shape)
                    + " whose byte size overflows 64 bits", e);
        }
        if (end - begin != expected) {
            throw new CheckpointException(path + ": tensor " + name + " has " + (end - begin)
                    + " bytes but its dtype and shape need " + expected);
        }
        return new Entry(dtype, shape, begin, end);
    }

    /**
     * Refuses tensors whose byte ranges overlap. The format gives every tensor its own bytes; aliased ranges would
     * let one region of the file be read as two tensors of different types, which no writer produces.
     */
    private static void requireDisjoint(Path path, Map<String, Entry> entries) {
        List<Map.Entry<String, Entry>> byBegin = entries.entrySet().stream()
                .filter(e -> e.getValue().end() > e.getValue().begin())
                .sorted(Comparator.comparingLong(e -> e.getValue().begin()))
                .toList();
        // Sorted by start, some pair overlaps exactly when some neighbouring pair does.
        for (int i = 1; i < byBegin.size(); i++) {
            Map.Entry<String, Entry> previous = byBegin.get(i - 1);
            Map.Entry<String, Entry> next = byBegin.get(i);
            if (next.getValue().begin() < previous.getValue().end()) {
                throw new CheckpointException(path + ": tensors " + previous.getKey() + " " + range(previous.getValue())
                        + " and " + next.getKey() + " " + range(next.getValue()) + " overlap");
            }
        }
    }

    private static String range(Entry e) {
        return "[" + e.begin() + ", " + e.end() + ")";
    }

    private static void readFully(FileChannel channel, ByteBuffer into, long position) throws IOException {
        while (into.hasRemaining()) {
            int n = channel.read(into, position + into.position());
            if (n < 0) {
                throw new CheckpointException("unexpected end of file");
            }
        }
        into.flip();
    }

    @Override
    public Set<String> names() {
        return entries.keySet();
    }

    @Override
    public RawTensor get(String name) {
        Entry e = entries.get(name);
        if (e == null) {
            throw new CheckpointException(path + " has no tensor " + name);
        }
        try {
            ByteBuffer data = e.end == e.begin
                    ? ByteBuffer.allocate(0)
                    : channel.map(FileChannel.MapMode.READ_ONLY, dataStart + e.begin, e.end - e.begin);
            return new RawTensor(e.dtype, e.shape, data);
        } catch (IOException ex) {
            throw new CheckpointException("cannot map " + name + " of " + path + ": " + ex.getMessage(), ex);
        }
    }

    /** The string pairs of the header's {@code __metadata__} object (empty if absent). */
    public Map<String, String> metadata() {
        return metadata;
    }

    @Override
    public String description() {
        return path.toString();
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
