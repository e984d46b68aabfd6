package io.sam3stream.schemas.registry.embedded;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Keeps the registry's state in one JSON file, so that schema ids survive restarts just as the records that
 * carry them survive in the broker's data directory. Each save replaces the file atomically, so a crash leaves
 * either the old state or the new one, never a torn file.
 */
final class RegistryStateFile {

    /** Name of the file inside the data directory. */
    static final String FILE_NAME = "schema-registry.json";

    private static final ObjectMapper JSON =
            new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
                    .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);

    private final Path file;
    private final Path temporary;

    RegistryStateFile(Path dataDir) {
        this.file = dataDir.resolve(FILE_NAME);
        this.temporary = dataDir.resolve(FILE_NAME + ".tmp");
    }

    Path path() {
        return file;
    }

    /** The saved state, or an empty registry's when nothing was saved yet. */
    RegistrySnapshot load() throws IOException {
        if (!Files.exists(file)) {
            return RegistrySnapshot.empty();
        }
        try {
            return JSON.readValue(file.toFile(), RegistrySnapshot.class);
        } catch (IOException e) {
            throw new IOException("cannot read the schema registry state " + file + ": " + e.getMessage(), e);
        }
    }

    void save(RegistrySnapshot snapshot) throws IOException {
        Files.createDirectories(file.getParent());
        byte[] bytes = JSON.writeValueAsBytes(snapshot);
        try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.CREATE,
                StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer buffer = ByteBuffer.wrap(bytes);
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
            channel.force(true);
        }
        Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }
}
