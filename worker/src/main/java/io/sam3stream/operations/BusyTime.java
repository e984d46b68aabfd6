package io.sam3stream.operations;

import java.util.function.LongSupplier;

/**
 * How long something that works one job at a time (the device thread) has been busy, counting the job under way:
 * a forward of minutes shows up in the busy time while it runs rather than all at once when it ends. The rate of
 * the total over a window is the fraction of that window it was busy.
 */
public final class BusyTime {

    private final LongSupplier nanoClock;
    private long finishedNanos;
    private long startedAt;
    private boolean busy;

    /** Busy time by the system's monotonic clock. */
    public BusyTime() {
        this(System::nanoTime);
    }

    /** @param nanoClock a monotonic clock in nanoseconds */
    public BusyTime(LongSupplier nanoClock) {
        this.nanoClock = nanoClock;
    }

    /** A job starts. */
    public synchronized void begin() {
        if (busy) {
            throw new IllegalStateException("a job is already under way");
        }
        busy = true;
        startedAt = nanoClock.getAsLong();
    }

    /** The job under way ended, whether it succeeded or not. */
    public synchronized void end() {
        if (!busy) {
            throw new IllegalStateException("no job is under way");
        }
        busy = false;
        finishedNanos += nanoClock.getAsLong() - startedAt;
    }

    /** Seconds busy so far, including the job under way. */
    public synchronized double seconds() {
        long nanos = finishedNanos + (busy ? nanoClock.getAsLong() - startedAt : 0);
        return nanos / 1e9;
    }
}
