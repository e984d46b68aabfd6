package io.sam3stream.fuzz;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * One temporary file that a fuzz target rewrites with each input, for readers that take a {@link Path}. Creating a
 * file per input would cost more than most inputs take to parse; the file is deleted when the JVM exits.
 */
final class FuzzInputFile {

    private final String suffix;
    private Path file;

    /** @param suffix the file name's ending, e.g. {@code .safetensors} */
    FuzzInputFile(String suffix) {
        this.suffix = suffix;
    }

    /** The file, created on first use; its content is whatever was last written. */
    Path path() {
        if (file == null) {
            try {
                file = Files.createTempFile("fuzz-input", suffix);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot create a file for the fuzz input", e);
            }
            file.toFile().deleteOnExit();
        }
        return file;
    }

    /** Replaces the file's content with {@code data} and returns its path. */
    Path write(byte[] data) {
        try {
            return Files.write(path(), data);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the fuzz input", e);
        }
    }
}
