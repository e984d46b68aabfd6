package io.sam3stream.bench;

import io.sam3stream.config.Settings;
import io.sam3stream.engine.CpuFeatures;
import io.sam3stream.engine.MklKernels;
import io.sam3stream.engine.NativeAllocator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * What a measurement ran on: CPU model and the vector extensions that matter to libtorch's kernels, the cores this
 * process may use, and the load average (other work on a shared machine slows every figure, which is why each
 * comparison is measured side by side in one run).
 */
public final class MachineInfo {

    private MachineInfo() {}

    /**
     * One line: model and the flags that pick libtorch's kernels, cores, memory, the C allocator, MKL's kernel
     * choice, load average.
     *
     * @param mklKernels what {@link MklKernels#apply} decided for this process (the caller applies it before
     *                   libtorch's first product, which a description must not be the one to trigger)
     */
    public static String describe(MklKernels mklKernels) {
        Settings settings = Settings.fromEnvironment();
        return String.format(Locale.ROOT, "%s; %d cores for this process, memory %s, allocator %s, MKL kernels %s,"
                + " load average %s", CpuFeatures.host().summary(), Runtime.getRuntime().availableProcessors(),
                field(lines("/proc/meminfo"), "MemTotal"), NativeAllocator.current(settings).name(),
                mklKernels.byFeatures() ? "by instruction set" : "MKL's own choice", loadAverage());
    }

    /** The 1-, 5- and 15-minute load averages. */
    public static String loadAverage() {
        List<String> load = lines("/proc/loadavg");
        if (load.isEmpty()) {
            return "?";
        }
        String[] parts = load.get(0).split(" ");
        return parts.length >= 3 ? parts[0] + " " + parts[1] + " " + parts[2] : "?";
    }

    private static String field(List<String> lines, String key) {
        return lines.stream()
                .filter(l -> l.startsWith(key))
                .map(l -> l.substring(l.indexOf(':') + 1).trim())
                .findFirst().orElse("?");
    }

    private static List<String> lines(String file) {
        try {
            return Files.readAllLines(Path.of(file));
        } catch (IOException e) {
            return List.of();
        }
    }
}
