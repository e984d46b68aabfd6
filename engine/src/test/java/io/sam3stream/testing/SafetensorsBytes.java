package io.sam3stream.testing;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Hand-made safetensors files, well formed or not, for the reader's tests. */
public final class SafetensorsBytes {

    private SafetensorsBytes() {}

    /**
     * Writes {@code file}: the 8-byte little-endian header length field (as given, true or not), the header text
     * and {@code dataBytes} zero bytes of data.
     */
    public static Path write(Path file, long headerLength, String header, int dataBytes) throws IOException {
        byte[] text = header.getBytes(StandardCharsets.UTF_8);
        ByteBuffer b = ByteBuffer.allocate(8 + text.length + dataBytes).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(headerLength).put(text);
        return Files.write(file, b.array());
    }
}
