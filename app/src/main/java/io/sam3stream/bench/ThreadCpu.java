package io.sam3stream.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Where a process's CPU time goes, by kind of thread: the CPU time of every live Java thread, summed over threads
 * whose names differ only in their numbers ({@code sam3-host-1} and {@code sam3-host-2} are {@code sam3-host-N}),
 * and the rest of the process's CPU time — the JVM's own threads (JIT compilers, garbage collector) and native
 * threads — as one entry. Two snapshots, before and after a load, give what the load cost each kind.
 */
public final class ThreadCpu {

    /** The entry for CPU time no Java thread accounts for. */
    public static final String JVM_AND_NATIVE = "JVM internals (JIT, GC) and native threads";

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final long processNanos;
    private final Map<Long, Long> nanosByThread;
    private final Map<Long, String> groupByThread;

    private ThreadCpu(long processNanos, Map<Long, Long> nanosByThread, Map<Long, String> groupByThread) {
        this.processNanos = processNanos;
        this.nanosByThread = nanosByThread;
        this.groupByThread = groupByThread;
    }

    /** The CPU time of the process and of each live thread now. */
    public static ThreadCpu snapshot() {
        Map<Long, Long> nanos = new HashMap<>();
        Map<Long, String> groups = new HashMap<>();
        for (ThreadInfo info : THREADS.getThreadInfo(THREADS.getAllThreadIds())) {
            if (info == null) {
                continue; // ended since its id was listed
            }
            long cpu = THREADS.getThreadCpuTime(info.getThreadId());
            if (cpu >= 0) {
                nanos.put(info.getThreadId(), cpu);
                groups.put(info.getThreadId(), group(info.getThreadName()));
            }
        }
        return new ThreadCpu(CpuClock.nanos(), nanos, groups);
    }

    /** A thread's name with its numbers after '-' or '#' replaced by N. */
    static String group(String threadName) {
        return threadName.replaceAll("(?<=[-#])\\d+", "N");
    }

    /**
     * Milliseconds of CPU per unit of work between {@code before} and this snapshot, by kind of thread, largest
     * first. A thread that started in between counts from zero; one that ended is in the rest.
     *
     * @param units how many units of work (requests) the interval did
     */
    public Map<String, Double> millisPerUnitSince(ThreadCpu before, long units) {
        Map<String, Long> byGroup = new HashMap<>();
        long named = 0;
        for (Map.Entry<Long, Long> e : nanosByThread.entrySet()) {
            long spent = e.getValue() - before.nanosByThread.getOrDefault(e.getKey(), 0L);
            byGroup.merge(groupByThread.get(e.getKey()), spent, Long::sum);
            named += spent;
        }
        byGroup.put(JVM_AND_NATIVE, Math.max(0, processNanos - before.processNanos - named));
        Map<String, Double> sorted = new LinkedHashMap<>();
        byGroup.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .forEach(e -> sorted.put(e.getKey(), e.getValue() / 1e6 / units));
        return sorted;
    }

    /** Process CPU milliseconds per unit of work between {@code before} and this snapshot. */
    public double processMillisPerUnitSince(ThreadCpu before, long units) {
        return (processNanos - before.processNanos) / 1e6 / units;
    }
}
