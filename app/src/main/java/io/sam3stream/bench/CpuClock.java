package io.sam3stream.bench;

import java.lang.management.ManagementFactory;

/**
 * CPU time of the whole process, native threads (libtorch's intra-op pool) included. On a machine shared with
 * other work, wall time also counts the time this process waited for a core; CPU time counts only the work, so it
 * is the steadier figure when the load average exceeds the cores.
 */
public final class CpuClock {

    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    private CpuClock() {}

    /** Process CPU time, nanoseconds (all threads, user and system). */
    public static long nanos() {
        return OS.getProcessCpuTime();
    }
}
