package io.sam3stream.weights;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SafetensorsWriterTest {

    @TempDir
    Path dir;

    private static RawTensor tensor(DType dtype, long[] shape, int... bytes) {
        ByteBuffer b = ByteBuffer.allocate(bytes.length);
        for (int v : bytes) {
            b.put((byte) v);
        }
        return new RawTensor(dtype, shape, b.flip());
    }

    private static Map<String, RawTensor> mixedTensors() {
        Map<String, RawTensor> tensors = new LinkedHashMap<>();
        tensors.put("half", tensor(DType.F16, new long[] {3}, 0, 0x3c, 0, 0xc0, 0xff, 0x7b));
        tensors.put("flags", tensor(DType.BOOL, new long[] {1}, 1));
        tensors.put("matrix", RawTensor.ofFloats(new float[] {1, -2, 3.5f, 1e-7f}, 2, 2));
        tensors.put("bytes", tensor(DType.U8, new long[] {3}, 7, 8, 9));
        tensors.put("ids", tensor(DType.I64, new long[] {1}, 1, 2, 3, 4, 5, 6, 7, 8));
        tensors.put("empty", tensor(DType.BF16, new long[] {0, 4}));
        tensors.put("scalar", tensor(DType.F64, new long[] {}, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f));
        return tensors;
    }

    @Test
    void roundTripsTensorsAndMetadata() {
        Map<String, RawTensor> tensors = mixedTensors();
        Path file = dir.resolve("t.safetensors");
        SafetensorsWriter.write(file, tensors, Map.of("format", "pt", "seed", "0"));
        try (SafetensorsFile read = SafetensorsFile.open(file)) {
            assertEquals(new ArrayList<>(tensors.keySet()), new ArrayList<>(read.names()));
            assertEquals(Map.of("format", "pt", "seed", "0"), read.metadata());
            tensors.forEach((name, expected) -> {
                RawTensor actual = read.get(name);
                assertEquals(expected.dtype(), actual.dtype(), name);
                assertArrayEquals(expected.shape(), actual.shape(), name);
                assertEquals(expected.data(), actual.data(), name);
            });
            assertEquals(1.0, read.get("scalar").toFloats()[0]);
        }
    }

    @Test
    void alignsEveryTensorToItsElementSizeAndTheHeaderToEightBytes() throws IOException {
        Path file = dir.resolve("t.safetensors");
        SafetensorsWriter.write(file, mixedTensors(), Map.of());
        byte[] bytes = Files.readAllBytes(file);
        long headerLength = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).getLong(0);
        assertEquals(0, headerLength % 8);
        JsonNode header = new ObjectMapper().readTree(new String(bytes, 8, (int) headerLength));
        List<String> misaligned = new ArrayList<>();
        header.properties().forEach(e -> {
            long begin = e.getValue().get("data_offsets").get(0).asLong();
            if (begin % DType.fromSafetensors(e.getValue().get("dtype").asText()).byteSize() != 0) {
                misaligned.add(e.getKey());
            }
        });
        assertTrue(misaligned.isEmpty(), "misaligned: " + misaligned);
    }

    @Test
    void replacesAnExistingFileAndLeavesNoPartialFile() throws IOException {
        Path file = dir.resolve("t.safetensors");
        Files.writeString(file, "old");
        SafetensorsWriter.write(file, Map.of("x", RawTensor.ofFloats(new float[] {2}, 1)), Map.of());
        try (SafetensorsFile read = SafetensorsFile.open(file)) {
            assertArrayEquals(new float[] {2}, read.get("x").toFloats());
        }
        try (var files = Files.list(dir)) {
            assertEquals(List.of(file), files.toList());
        }
    }
}
