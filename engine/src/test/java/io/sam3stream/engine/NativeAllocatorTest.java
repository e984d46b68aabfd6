package io.sam3stream.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sam3stream.config.ConfigException;
import io.sam3stream.config.Settings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NativeAllocatorTest {

    private static final List<String> WITH_JEMALLOC = List.of("/usr/lib/jvm/java-17/lib/server/libjvm.so",
            "/usr/lib/x86_64-linux-gnu/libjemalloc.so.2", "/usr/lib/x86_64-linux-gnu/libc.so.6");
    private static final List<String> WITHOUT = List.of("/usr/lib/jvm/java-17/lib/server/libjvm.so",
            "/usr/lib/x86_64-linux-gnu/libc.so.6");

    @Test
    void jemallocAskedForAndMappedIsInUse() {
        NativeAllocator allocator = NativeAllocator.resolve("jemalloc", WITH_JEMALLOC);

        assertEquals("jemalloc", allocator.name());
        assertTrue(allocator.explanation().contains("SAM3_ALLOCATOR=jemalloc"), allocator.explanation());
    }

    @Test
    void jemallocAskedForButAbsentFallsBackToGlibcAndSaysHowToInstallIt() {
        NativeAllocator allocator = NativeAllocator.resolve("jemalloc", WITHOUT);

        assertEquals("glibc", allocator.name());
        assertTrue(allocator.explanation().contains("libjemalloc2"), allocator.explanation());
        assertTrue(allocator.explanation().contains("LD_PRELOAD"), allocator.explanation());
    }

    @Test
    void glibcAskedForIsGlibcUnlessJemallocWasPreloadedAnyway() {
        assertEquals(new NativeAllocator("glibc", "SAM3_ALLOCATOR=glibc"), NativeAllocator.resolve("glibc", WITHOUT));

        NativeAllocator preloaded = NativeAllocator.resolve("glibc", WITH_JEMALLOC);
        assertEquals("jemalloc", preloaded.name(), "what the process runs with is reported, not what was asked");
        assertTrue(preloaded.explanation().contains("although SAM3_ALLOCATOR=glibc"), preloaded.explanation());
    }

    @Test
    void anUnknownAllocatorIsRefusedNamingTheKnob() {
        ConfigException e = assertThrows(ConfigException.class,
                () -> NativeAllocator.current(Settings.from(Map.of("SAM3_ALLOCATOR", "tcmalloc"))));
        assertTrue(e.getMessage().contains("SAM3_ALLOCATOR=tcmalloc"), e.getMessage());
    }

    @Test
    void theMappedFilesOfThisProcessIncludeTheJvm() {
        List<String> files = NativeAllocator.mappedFiles(Path.of("/proc/self/maps"));

        assertTrue(files.stream().anyMatch(f -> f.endsWith("/libjvm.so")), files.toString());
        assertTrue(files.stream().allMatch(f -> f.startsWith("/")), "only file paths: " + files);
    }

    @Test
    void aProcessStartedWithJemallocPreloadedIsSeenToRunOnIt(@TempDir Path dir) throws Exception {
        Optional<Path> jemalloc = installedJemalloc();
        assumeTrue(jemalloc.isPresent(), "SKIPPED: libjemalloc.so.2 is not installed here (Debian: libjemalloc2),"
                + " so no process can be started with it preloaded");

        List<String> preloaded = mapsOfCat(dir.resolve("preloaded"), jemalloc.get().toString());
        List<String> plain = mapsOfCat(dir.resolve("plain"), null);

        assertEquals("jemalloc", NativeAllocator.resolve("jemalloc", preloaded).name());
        assertEquals("glibc", NativeAllocator.resolve("jemalloc", plain).name());
    }

    /** The mapped files of a {@code cat} of its own maps, started with {@code LD_PRELOAD=preload} when given. */
    private static List<String> mapsOfCat(Path out, String preload) throws IOException, InterruptedException {
        ProcessBuilder cat = new ProcessBuilder("cat", "/proc/self/maps").redirectOutput(out.toFile());
        cat.environment().remove("LD_PRELOAD");
        if (preload != null) {
            cat.environment().put("LD_PRELOAD", preload);
        }
        assertEquals(0, cat.start().waitFor());
        return NativeAllocator.mappedFiles(out);
    }

    private static Optional<Path> installedJemalloc() {
        return Stream.of("/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib",
                        "/usr/local/lib")
                .map(dir -> Path.of(dir, "libjemalloc.so.2"))
                .filter(Files::isRegularFile)
                .findFirst();
    }
}
