package io.sam3stream.weights;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Writes tensors as a safetensors file: a u64 little-endian header length, a JSON header (padded with spaces to a
 * multiple of 8 bytes) giving each tensor's dtype, shape and byte range, then the raw little-endian data.
 *
 * <p>The data are laid out widest element type first, so every tensor starts at a multiple of its element size
 * and a mapped file can be viewed as typed buffers. Tensors are fetched one at a time (twice: once for the header,
 * once for the data), so a large checkpoint is converted without holding it in memory. The file is written beside
 * the target and moved into place, so a failed write never leaves a partial file under the target name.
 */
public final class SafetensorsWriter {

    private static final String METADATA_KEY = "__metadata__";

    private record Slot(String name, DType dtype, long[] shape, long bytes) {}

    private SafetensorsWriter() {}

    /** Writes every tensor of a source, in the order of its names. */
    public static void write(Path file, WeightSource source, Map<String, String> metadata) {
        write(file, source.names(), source::get, metadata);
    }

    /** Writes the given tensors, in the map's order. */
    public static void write(Path file, Map<String, RawTensor> tensors, Map<String, String> metadata) {
        write(file, tensors.keySet(), tensors::get, metadata);
    }

    private static void write(Path file, Collection<String> names, Function<String, RawTensor> tensors,
            Map<String, String> metadata) {
        if (names.contains(METADATA_KEY)) {
            throw new CheckpointException("a tensor cannot be named " + METADATA_KEY);
        }
        List<Slot> slots = names.stream().map(name -> {
            RawTensor t = tensors.apply(name);
            return new Slot(name, t.dtype(), t.shape(), t.data().remaining());
        }).toList();
        List<Slot> dataOrder = slots.stream()
                .sorted(Comparator.comparingInt((Slot s) -> s.dtype().byteSize()).reversed())
                .toList();
        byte[] header = header(slots, dataOrder, metadata);
        Path partial = file.resolveSibling(file.getFileName() + ".partial");
        try {
            try (FileChannel out = FileChannel.open(partial, StandardOpenOption.CREATE,
                    StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
                writeFully(out, ByteBuffer.allocate(Long.BYTES).order(ByteOrder.LITTLE_ENDIAN)
                        .putLong(0, header.length));
                writeFully(out, ByteBuffer.wrap(header));
                for (Slot slot : dataOrder) {
                    RawTensor t = tensors.apply(slot.name());
                    if (t.dtype() != slot.dtype() || !Arrays.equals(t.shape(), slot.shape())) {
                        throw new CheckpointException("tensor " + slot.name() + " changed while being written");
                    }
                    writeFully(out, t.data());
                }
            }
            Files.move(partial, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException | RuntimeException e) {
            try {
                Files.deleteIfExists(partial);
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            if (e instanceof RuntimeException re) {
                throw re;
            }
            throw new CheckpointException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    /** The JSON header in the callers' order, with byte ranges following the data order, padded to 8 bytes. */
    private static byte[] header(List<Slot> slots, List<Slot> dataOrder, Map<String, String> metadata) {
        ObjectMapper json = new ObjectMapper();
        Map<String, long[]> ranges = new HashMap<>();
        long position = 0;
        for (Slot slot : dataOrder) {
            ranges.put(slot.name(), new long[] {position, position + slot.bytes()});
            position += slot.bytes();
        }
        ObjectNode header = json.createObjectNode();
        if (!metadata.isEmpty()) {
            ObjectNode meta = header.putObject(METADATA_KEY);
            metadata.forEach(meta::put);
        }
        for (Slot slot : slots) {
            ObjectNode entry = header.putObject(slot.name());
            entry.put("dtype", slot.dtype().name());
            ArrayNode shape = entry.putArray("shape");
            Arrays.stream(slot.shape()).forEach(shape::add);
            ArrayNode offsets = entry.putArray("data_offsets");
            Arrays.stream(ranges.get(slot.name())).forEach(offsets::add);
        }
        try {
            byte[] text = json.writeValueAsBytes(header);
            byte[] padded = Arrays.copyOf(text, (text.length + 7) / 8 * 8);
            Arrays.fill(padded, text.length, padded.length, (byte) ' ');
            return padded;
        } catch (IOException e) {
            throw new CheckpointException("cannot encode the safetensors header: " + e.getMessage(), e);
        }
    }

    private static void writeFully(FileChannel out, ByteBuffer data) throws IOException {
        while (data.hasRemaining()) {
            out.write(data);
        }
    }
}
