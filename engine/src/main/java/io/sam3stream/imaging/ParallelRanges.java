package io.sam3stream.imaging;

import java.util.stream.IntStream;

/**
 * Splits {@code [0, count)} into contiguous ranges run on the common fork-join pool, or runs it inline when it is
 * too small to be worth splitting. Results never depend on the split: every index is computed by the same
 * arithmetic whichever thread runs it.
 */
final class ParallelRanges {

    /** The body of one range. */
    @FunctionalInterface
    interface RangeBody {
        void run(int from, int to);
    }

    private ParallelRanges() {}

    /**
     * @param minPerRange the smallest range worth handing to another thread
     */
    static void forEach(int count, int minPerRange, RangeBody body) {
        int threads = Runtime.getRuntime().availableProcessors();
        int ranges = Math.min(threads * 4, count / Math.max(1, minPerRange));
        if (threads == 1 || ranges <= 1) {
            body.run(0, count);
            return;
        }
        IntStream.range(0, ranges).parallel().forEach(r -> {
            int from = (int) ((long) count * r / ranges);
            int to = (int) ((long) count * (r + 1) / ranges);
            body.run(from, to);
        });
    }
}
