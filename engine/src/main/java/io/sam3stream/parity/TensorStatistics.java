package io.sam3stream.parity;

/**
 * Whole-tensor statistics as the sampled golden layout stores them ({@code NAME:stats}): mean, population standard
 * deviation (ddof = 0), minimum and maximum, computed in binary64.
 *
 * @param mean mean of all elements
 * @param std  population standard deviation
 * @param min  smallest element
 * @param max  largest element
 */
public record TensorStatistics(double mean, double std, double min, double max) {

    /** Number of values in the {@code NAME:stats} layout. */
    public static final int LENGTH = 4;

    /**
     * Statistics of every value, in binary64. The deviation takes a second pass around the mean rather than
     * E[x²] − E[x]², which would cancel catastrophically for tensors whose mean is large next to their spread.
     * An empty tensor has NaN statistics, as in numpy.
     */
    public static TensorStatistics of(float[] values) {
        if (values.length == 0) {
            return new TensorStatistics(Double.NaN, Double.NaN, Double.NaN, Double.NaN);
        }
        double sum = 0;
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (float v : values) {
            sum += v;
            min = Math.min(min, v);
            max = Math.max(max, v);
        }
        double mean = sum / values.length;
        double squares = 0;
        for (float v : values) {
            double d = v - mean;
            squares += d * d;
        }
        return new TensorStatistics(mean, Math.sqrt(squares / values.length), min, max);
    }

    /** Reads the {@code NAME:stats} layout: mean, std, min, max. */
    public static TensorStatistics fromArray(double[] stats) {
        if (stats.length != LENGTH) {
            throw new IllegalArgumentException("expected " + LENGTH + " statistics, got " + stats.length);
        }
        return new TensorStatistics(stats[0], stats[1], stats[2], stats[3]);
    }
}
