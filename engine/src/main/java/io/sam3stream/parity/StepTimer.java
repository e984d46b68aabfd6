package io.sam3stream.parity;

import java.lang.management.ManagementFactory;
import java.util.Locale;

/**
 * Measures a step's wall-clock time and the CPU time the whole process spent meanwhile (libtorch's threads, the
 * JIT's, the collector's). On a machine other jobs share, the CPU time shows the step's cost apart from how long it
 * waited for a core.
 */
public final class StepTimer {

    /**
     * The time a step took.
     *
     * @param wallSeconds wall-clock seconds
     * @param cpuSeconds  CPU seconds of the process, over all its threads
     */
    public record Elapsed(double wallSeconds, double cpuSeconds) {
        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%.1f s (CPU %.1f s)", wallSeconds, cpuSeconds);
        }
    }

    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    private final long wallStart = System.nanoTime();
    private final long cpuStart = OS.getProcessCpuTime();

    private StepTimer() {}

    /** Starts timing now. */
    public static StepTimer start() {
        return new StepTimer();
    }

    /** The time since {@link #start}. */
    public Elapsed elapsed() {
        return new Elapsed((System.nanoTime() - wallStart) / 1e9, (OS.getProcessCpuTime() - cpuStart) / 1e9);
    }
}
