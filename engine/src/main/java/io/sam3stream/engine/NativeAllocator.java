package io.sam3stream.engine;

import io.sam3stream.config.Knob;
import io.sam3stream.config.Settings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The C allocator this process's native memory (libtorch's tensors, the native library's buffers) comes from, and
 * how it came to be, for the start-up log.
 *
 * <p>A process cannot change its allocator once it runs: the launcher ({@code sam3}) and the worker image preload
 * jemalloc before the JVM starts, as {@code SAM3_ALLOCATOR} asks. This class reads the choice and the libraries
 * the process has mapped, so that a worker started without the library, or some other way than through the launcher,
 * says that it runs on glibc's malloc and what that costs, instead of being silently slower.
 *
 * @param name        {@code jemalloc} or {@code glibc}: the one in use
 * @param explanation why, naming the setting and, where they differ, what was asked for
 */
public record NativeAllocator(String name, String explanation) {

    /** The allocators {@code SAM3_ALLOCATOR} names. */
    public static final String JEMALLOC = "jemalloc";
    public static final String GLIBC = "glibc";

    /** The allocator of this process: the setting against the libraries mapped into it. */
    public static NativeAllocator current(Settings settings) {
        String wanted = settings.getChoice(Knob.SAM3_ALLOCATOR, JEMALLOC, GLIBC);
        return resolve(wanted, mappedFiles(Path.of("/proc/self/maps")));
    }

    /**
     * @param wanted      the value of {@code SAM3_ALLOCATOR}
     * @param mappedFiles the files mapped into the process ({@code /proc/<pid>/maps}'s path column)
     */
    public static NativeAllocator resolve(String wanted, List<String> mappedFiles) {
        boolean jemallocLoaded = mappedFiles.stream()
                .anyMatch(file -> Path.of(file).getFileName().toString().startsWith("libjemalloc.so"));
        String setting = Knob.SAM3_ALLOCATOR + "=" + wanted;
        if (jemallocLoaded) {
            return new NativeAllocator(JEMALLOC, wanted.equals(JEMALLOC)
                    ? setting + ": libjemalloc preloaded"
                    : "libjemalloc preloaded through LD_PRELOAD although " + setting);
        }
        if (wanted.equals(GLIBC)) {
            return new NativeAllocator(GLIBC, setting);
        }
        return new NativeAllocator(GLIBC, setting + ", but libjemalloc.so.2 is not loaded in this process: install"
                + " it (Debian: apt-get install libjemalloc2) and start through ./sam3, or preload it"
                + " (LD_PRELOAD=libjemalloc.so.2); on glibc's malloc large activations are mapped afresh, which made"
                + " a full-size extra prompt 1.25-1.7x as long (docs/PERFORMANCE.md, \"jemalloc\")");
    }

    /** The path column of a {@code maps} file: every file mapped into the process (empty where unreadable). */
    static List<String> mappedFiles(Path maps) {
        try (var lines = Files.lines(maps)) {
            return lines.map(line -> line.split("\\s+", 6))
                    .filter(fields -> fields.length == 6 && fields[5].startsWith("/"))
                    .map(fields -> fields[5])
                    .distinct()
                    .toList();
        } catch (IOException e) {
            return List.of();
        }
    }
}
