package io.sam3stream.fuzz;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.function.Supplier;

/**
 * Asserts that an action allocates no more heap than a bound proportional to its input, so that a header claiming
 * a huge size is caught even when the heap could hold what it claims: a 2 GB allocation from a 200-byte file is a
 * bug whether or not it happens to fit. Measured with the JVM's per-thread allocation counter.
 */
public final class AllocationBudget {

    /**
     * Room for the one-off costs of a first call: loading classes, which when fuzzing includes Jazzer instrumenting
     * each class as it loads (about 50 MB for the checkpoint readers). Still far below what a hostile header claims.
     */
    private static final long FIXED_BYTES = 128L << 20;

    /** Bytes a reader may allocate per input byte: parsed trees and copied values stay within this. */
    private static final long BYTES_PER_INPUT_BYTE = 64;

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private AllocationBudget() {}

    /** Runs {@code action} and fails if it allocated more than the budget for an input of {@code inputBytes}. */
    public static void assertWithinInputBudget(long inputBytes, Runnable action) {
        assertWithinInputBudget(inputBytes, 0, action);
    }

    /**
     * As {@link #assertWithinInputBudget(long, Runnable)}, with {@code outputBytes} more for a result that may
     * legitimately be larger than its input, such as an image decoded within its size limits.
     */
    public static void assertWithinInputBudget(long inputBytes, long outputBytes, Runnable action) {
        assertAtMost(FIXED_BYTES + BYTES_PER_INPUT_BYTE * inputBytes + outputBytes, () -> {
            action.run();
            return null;
        });
    }

    /** Runs {@code action}, fails if it allocated more than {@code budget} bytes, and returns its result. */
    public static <T> T assertAtMost(long budget, Supplier<T> action) {
        long before = THREADS.getCurrentThreadAllocatedBytes();
        try {
            return action.get();
        } finally {
            long allocated = THREADS.getCurrentThreadAllocatedBytes() - before;
            assertTrue(allocated <= budget, "allocated " + allocated + " bytes, budget " + budget);
        }
    }
}
