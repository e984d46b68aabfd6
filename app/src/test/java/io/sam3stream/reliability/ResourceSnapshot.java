package io.sam3stream.reliability;

import ai.djl.ndarray.NDManager;
import com.sun.management.UnixOperatingSystemMXBean;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.lang.management.OperatingSystemMXBean;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What this JVM holds at one moment, for leak checks: live heap (measured right after a full collection, so garbage
 * does not count), live threads, open file descriptors, the NDArrays DJL still manages (every array of every
 * manager under the engine's root manager), and, for the record, the process's resident set size and the heap's
 * committed size (their difference is mostly native: tensors, libtorch's and glibc's allocator caches, metaspace,
 * code, thread stacks).
 *
 * @param heapBytes          heap in use after a full collection
 * @param threads            live threads
 * @param fileHandles        open file descriptors (sockets included)
 * @param ndArrays           NDArrays DJL manages (native tensors not yet closed)
 * @param residentBytes      the process's resident set size
 * @param heapCommittedBytes heap the JVM holds from the system
 */
record ResourceSnapshot(long heapBytes, int threads, long fileHandles, int ndArrays, long residentBytes,
        long heapCommittedBytes) {

    /** Collects garbage, then measures. */
    static ResourceSnapshot take() {
        long heap = heapAfterFullCollection();
        long committed = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getCommitted();
        return new ResourceSnapshot(heap, ManagementFactory.getThreadMXBean().getThreadCount(), openFiles(),
                liveNdArrays(), residentSetSize(), committed);
    }

    /**
     * The live heap of three full collections 100 ms apart ({@link #liveHeapAfterCollection}), the lowest: a
     * collection can miss what a finalizer or a cleaner frees just after it.
     */
    static long heapAfterFullCollection() {
        long lowest = liveHeapAfterCollection();
        for (int i = 1; i < 3; i++) {
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            lowest = Math.min(lowest, liveHeapAfterCollection());
        }
        return lowest;
    }

    /**
     * Collects garbage and returns the heap the collector found live: the pools' usage as the collection left them,
     * which, unlike the heap's current usage, leaves out what other threads allocate once it ends (under a burst of
     * client threads, each of which takes a fresh allocation buffer at once, that is tens of megabytes).
     */
    static long liveHeapAfterCollection() {
        System.gc();
        long live = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            MemoryUsage atCollection = pool.getCollectionUsage();
            if (pool.getType() == MemoryType.HEAP && atCollection != null) {
                live += atCollection.getUsed();
            }
        }
        return live;
    }

    private static long openFiles() {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        return os instanceof UnixOperatingSystemMXBean unix ? unix.getOpenFileDescriptorCount() : -1;
    }

    /** Arrays under DJL's root manager: a new base manager's parent is that root, and it counts its whole tree. */
    private static int liveNdArrays() {
        try (NDManager probe = NDManager.newBaseManager()) {
            return probe.getParentManager().getManagedArrays().size();
        }
    }

    private static long residentSetSize() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        } catch (IOException | NumberFormatException e) {
            // not Linux: unknown
        }
        return -1;
    }

    @Override
    public String toString() {
        return String.format("heap %.1f MiB, %d threads, %d file descriptors, %d NDArrays, RSS %.0f MiB of which"
                + " committed heap %.0f MiB", heapBytes / 1048576.0, threads, fileHandles, ndArrays,
                residentBytes / 1048576.0, heapCommittedBytes / 1048576.0);
    }
}
