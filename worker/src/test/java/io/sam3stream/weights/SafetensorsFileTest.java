package io.sam3stream.weights;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SafetensorsFileTest {

    @TempDir
    Path dir;

    /** A file of a header length field, the given header text and {@code dataBytes} zero bytes. */
    private Path file(long headerLength, String header, int dataBytes) throws IOException {
        byte[] text = header.getBytes(StandardCharsets.UTF_8);
        ByteBuffer b = ByteBuffer.allocate(8 + text.length + dataBytes).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(headerLength).put(text);
        return Files.write(dir.resolve("t.safetensors"), b.array());
    }

    private static String refusal(Path file) {
        return assertThrows(CheckpointException.class, () -> SafetensorsFile.open(file)).getMessage();
    }

    @Test
    void refusesATensorWhoseBytesRunPastTheEnd() throws IOException {
        String header = "{\"t\":{\"dtype\":\"F32\",\"shape\":[4],\"data_offsets\":[0,16]}}";
        String message = refusal(file(header.length(), header, 8));
        assertTrue(message.contains("outside the 8 data bytes"), message);
    }

    @Test
    void refusesAHeaderLengthBeyondTheFile() throws IOException {
        String header = "{}";
        String message = refusal(file(1000, header, 0));
        assertTrue(message.contains("invalid safetensors header length 1000"), message);
    }

    @Test
    void refusesANegativeHeaderLength() throws IOException {
        String message = refusal(file(-8, "{}", 0));
        assertTrue(message.contains("invalid safetensors header length -8"), message);
    }
}
