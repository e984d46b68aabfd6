package io.sam3stream.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sam3stream.testing.SafetensorsBytes;
import io.sam3stream.weights.CheckpointException;
import io.sam3stream.weights.CheckpointLoader;
import io.sam3stream.weights.SafetensorsFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A safetensors header is JSON the file's author controls: tensor ranges that alias each other or point outside
 * the data, shapes whose size overflows, a header length beyond the file. Each must be refused when the file is
 * opened, with a message that names the tensor and the problem, and without allocating what the header claims.
 */
class SafetensorsHeaderSafetyTest {

    private static final long ALLOCATION_BUDGET = 8L << 20;

    @TempDir
    Path dir;

    private Path file(long headerLength, String header, int dataBytes) throws IOException {
        return SafetensorsBytes.write(dir.resolve("hostile.safetensors"), headerLength, header, dataBytes);
    }

    private Path file(String header, int dataBytes) throws IOException {
        return file(header.getBytes(StandardCharsets.UTF_8).length, header, dataBytes);
    }

    /** A header entry {@code "name": {"dtype": ..., "shape": ..., "data_offsets": ...}}. */
    private static String tensor(String name, String dtype, String shape, String offsets) {
        return "\"" + name + "\":{\"dtype\":\"" + dtype + "\",\"shape\":" + shape + ",\"data_offsets\":" + offsets
                + "}";
    }

    private static String refusal(Path file) {
        assertThrows(CheckpointException.class, () -> SafetensorsFile.open(file)); // loads the classes unmeasured
        return AllocationBudget.assertAtMost(ALLOCATION_BUDGET,
                () -> assertThrows(CheckpointException.class, () -> SafetensorsFile.open(file))).getMessage();
    }

    private static void assertMentions(String message, String expected) {
        assertTrue(message.contains(expected), message);
    }

    @Test
    void refusesOverlappingTensorRanges() throws IOException {
        String header = "{" + tensor("a", "F32", "[4]", "[0,16]") + "," + tensor("b", "F32", "[4]", "[8,24]") + "}";
        assertMentions(refusal(file(header, 24)), "tensors a [0, 16) and b [8, 24) overlap");
    }

    @Test
    void refusesTwoTensorsSharingTheSameBytes() throws IOException {
        String header = "{" + tensor("f", "F32", "[2]", "[0,8]") + "," + tensor("i", "I64", "[1]", "[0,8]") + "}";
        assertMentions(refusal(file(header, 8)), "tensors f [0, 8) and i [0, 8) overlap");
    }

    @Test
    void refusesARangeContainedInAnotherListedLater() throws IOException {
        // the overlapping pair is not adjacent in header order
        String header = "{" + tensor("inner", "F32", "[1]", "[4,8]") + "," + tensor("tail", "F32", "[1]", "[16,20]")
                + "," + tensor("outer", "F32", "[4]", "[0,16]") + "}";
        assertMentions(refusal(file(header, 20)), "tensors outer [0, 16) and inner [4, 8) overlap");
    }

    @Test
    void acceptsAdjacentRangesAndEmptyTensorsAtTheSameOffset() throws IOException {
        String header = "{" + tensor("a", "F32", "[2]", "[0,8]") + "," + tensor("b", "F32", "[2]", "[8,16]") + ","
                + tensor("e1", "F32", "[0]", "[8,8]") + "," + tensor("e2", "F16", "[0,3]", "[8,8]") + "}";
        try (SafetensorsFile file = SafetensorsFile.open(file(header, 16))) {
            assertEquals(Set.of("a", "b", "e1", "e2"), file.names());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"[0,20]", "[16,8]", "[-4,0]", "[0,9223372036854775807]", "[\"zero\",16]"})
    void refusesOffsetsOutsideTheData(String offsets) throws IOException {
        String header = "{" + tensor("t", "F32", "[4]", offsets) + "}";
        assertMentions(refusal(file(header, 16)), "tensor t has byte range");
    }

    @Test
    void refusesAShapeWhoseByteSizeWrapsToTheStoredSize() throws IOException {
        // 2^62 float32 elements are 2^64 bytes, which wraps to 0 in 64-bit arithmetic: an empty range would match
        String header = "{" + tensor("t", "F32", "[4611686018427387904]", "[0,0]") + "}";
        assertMentions(refusal(file(header, 0)), "tensor t has shape [4611686018427387904] whose byte size overflows");
    }

    @Test
    void refusesAShapeWhoseElementCountOverflows() throws IOException {
        String header = "{" + tensor("t", "U8", "[4294967296,4294967296]", "[0,0]") + "}";
        assertMentions(refusal(file(header, 0)),
                "tensor t has shape [4294967296, 4294967296] whose byte size overflows");
    }

    @Test
    void refusesANegativeDimension() throws IOException {
        String header = "{" + tensor("t", "F32", "[-1,4]", "[0,0]") + "}";
        assertMentions(refusal(file(header, 0)), "tensor t has a negative dimension");
    }

    @ParameterizedTest
    @ValueSource(longs = {64, 104857601, Long.MAX_VALUE, -1})
    void refusesAHeaderLengthTheFileDoesNotHold(long headerLength) throws IOException {
        // the file holds a 2-byte header and no data; 104857601 is one past the 100 MiB header limit
        assertMentions(refusal(file(headerLength, "{}", 0)), "invalid safetensors header length " + headerLength);
    }

    @Test
    void theLoaderIgnoresALayerNumberBeyondAnInt() throws IOException {
        // HF numbers MLP layers from 1 ("layer1"); the loader renumbers them, and must not choke on the number
        String header = "{" + tensor("detector_model.detr_decoder.box_head.layer99999999999.weight", "F32", "[1]",
                "[0,4]") + "}";
        Path file = file(header, 4);
        String message = assertThrows(CheckpointException.class, () -> CheckpointLoader.open(file)).getMessage();
        assertMentions(message, "holds no SAM3 image-model tensors");
    }

    @Test
    void refusesAnUnknownDtype() throws IOException {
        String header = "{" + tensor("t", "C64", "[1]", "[0,8]") + "}";
        assertMentions(refusal(file(header, 8)), "unsupported safetensors dtype C64");
    }
}
