package io.sam3stream.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * This process's resident memory from {@code /proc/self/status}: the current resident set (VmRSS) and its peak
 * (VmHWM), which counts the model's native tensors as well as the Java heap.
 */
public final class ProcessMemory {

    private static final Path STATUS = Path.of("/proc/self/status");
    private static final Path CLEAR_REFS = Path.of("/proc/self/clear_refs");

    private ProcessMemory() {}

    /** Current resident set, bytes. */
    public static long residentBytes() {
        return statusKilobytes("VmRSS") * 1024;
    }

    /** Peak resident set since the process started or since the last successful {@link #resetPeak}, bytes. */
    public static long peakBytes() {
        return statusKilobytes("VmHWM") * 1024;
    }

    /**
     * Starts a new peak at the current resident set (Linux: writing 5 to {@code /proc/self/clear_refs}).
     *
     * @return false where the kernel refuses, in which case {@link #peakBytes} keeps counting from the start
     */
    public static boolean resetPeak() {
        try {
            Files.writeString(CLEAR_REFS, "5");
            return true;
        } catch (IOException | SecurityException e) {
            return false;
        }
    }

    private static long statusKilobytes(String key) {
        try {
            for (String line : Files.readAllLines(STATUS)) {
                if (line.startsWith(key + ":")) {
                    return Long.parseLong(line.substring(key.length() + 1).replace("kB", "").trim());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + STATUS, e);
        }
        throw new IllegalStateException(STATUS + " has no " + key);
    }

    /** Bytes as GB (10⁹), as the targets are written. */
    public static double gigabytes(long bytes) {
        return bytes / 1e9;
    }
}
