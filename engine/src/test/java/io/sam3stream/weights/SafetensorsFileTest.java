package io.sam3stream.weights;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sam3stream.testing.SafetensorsBytes;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SafetensorsFileTest {

    @TempDir
    Path dir;

    private Path file(long headerLength, String header, int dataBytes) throws IOException {
        return SafetensorsBytes.write(dir.resolve("t.safetensors"), headerLength, header, dataBytes);
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
