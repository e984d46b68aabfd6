package io.sam3stream.parity;

import java.util.Arrays;
import java.util.Locale;

/**
 * How a large stage compares with its sampled reference. Every bound is relative to the reference tensor's own
 * spread: each sampled value, and each of the whole tensor's mean, standard deviation, minimum and maximum, must
 * lie within a fraction of the reference's standard deviation of its reference counterpart (for the standard
 * deviation itself that is a relative bound): 1e-3 in float32, 2e-2 in bfloat16 ({@link ParityBounds}). Where the
 * reference's statistics cover values the engine does not compute ({@link PaddingPositions}), the samples alone are
 * compared.
 *
 * @param stage          stage name (the sampled entries' common prefix)
 * @param detail         why it failed when the failure is not numeric (shape or index mismatch), else empty
 * @param maxSampleDiff  largest |actual − reference| over the sampled values
 * @param meanSampleDiff mean |actual − reference| over the sampled values
 * @param actual         statistics of the computed tensor
 * @param reference      statistics of the reference tensor
 * @param tolerance      the bound every difference had to meet, the fraction × reference std
 * @param statisticsCompared whether the statistics were held to the bound too, or the samples alone
 */
public record SampledComparison(String stage, String detail, double maxSampleDiff, double meanSampleDiff,
        TensorStatistics actual, TensorStatistics reference, double tolerance, boolean statisticsCompared)
        implements StageVerdict {

    /** Compares a recorded large stage with its reference: every difference ≤ {@code stdFraction} × ref std. */
    public static SampledComparison of(String stage, SampledStage actual, SampledStage reference,
            double stdFraction) {
        return compare(stage, actual, reference, stdFraction, true);
    }

    /**
     * Compares only the sampled values of a recorded large stage with its reference, each within
     * {@code stdFraction} × ref std: for a reference whose statistics include values the engine does not compute.
     */
    public static SampledComparison ofSamples(String stage, SampledStage actual, SampledStage reference,
            double stdFraction) {
        return compare(stage, actual, reference, stdFraction, false);
    }

    private static SampledComparison compare(String stage, SampledStage actual, SampledStage reference,
            double stdFraction, boolean statisticsCompared) {
        double tolerance = stdFraction * reference.statistics().std();
        if (!Arrays.equals(actual.shape(), reference.shape())) {
            return failure(stage, "shape " + Arrays.toString(actual.shape()) + " but reference has "
                    + Arrays.toString(reference.shape()), actual, reference, tolerance);
        }
        if (!Arrays.equals(actual.indices(), reference.indices())) {
            return failure(stage, "sampled at other indices than the reference", actual, reference, tolerance);
        }
        float[] a = actual.values();
        float[] r = reference.values();
        double max = 0;
        double sum = 0;
        for (int i = 0; i < a.length; i++) {
            double d = Math.abs((double) a[i] - r[i]);
            if (Double.isNaN(d)) {
                d = Double.POSITIVE_INFINITY;
            }
            max = Math.max(max, d);
            sum += d;
        }
        return new SampledComparison(stage, "", max, a.length == 0 ? 0 : sum / a.length, actual.statistics(),
                reference.statistics(), tolerance, statisticsCompared);
    }

    private static SampledComparison failure(String stage, String detail, SampledStage actual,
            SampledStage reference, double tolerance) {
        return new SampledComparison(stage, detail, Double.NaN, Double.NaN, actual.statistics(),
                reference.statistics(), tolerance, true);
    }

    /** |actual − reference| of mean, std, min and max, in that order. */
    public double[] statisticsDiffs() {
        return new double[] {Math.abs(actual.mean() - reference.mean()), Math.abs(actual.std() - reference.std()),
            Math.abs(actual.min() - reference.min()), Math.abs(actual.max() - reference.max())};
    }

    @Override
    public boolean passed() {
        // every comparison with NaN is false, so a NaN difference fails
        return detail.isEmpty() && maxSampleDiff <= tolerance
                && (!statisticsCompared || Arrays.stream(statisticsDiffs()).allMatch(d -> d <= tolerance));
    }

    @Override
    public String reportLine() {
        if (!detail.isEmpty()) {
            return String.format(Locale.ROOT, "%-44s FAIL  %s", stage, detail);
        }
        if (!statisticsCompared) {
            return String.format(Locale.ROOT,
                    "%-44s samples max %.3e  mean %.3e | statistics not compared (padding rows) | tol %.1e  %s",
                    stage, maxSampleDiff, meanSampleDiff, tolerance, passed() ? "PASS" : "FAIL");
        }
        double[] s = statisticsDiffs();
        return String.format(Locale.ROOT,
                "%-44s samples max %.3e  mean %.3e | mean %.1e  std %.1e  min %.1e  max %.1e | tol %.1e  %s",
                stage, maxSampleDiff, meanSampleDiff, s[0], s[1], s[2], s[3], tolerance, passed() ? "PASS" : "FAIL");
    }
}
