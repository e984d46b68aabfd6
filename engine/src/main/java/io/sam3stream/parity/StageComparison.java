package io.sam3stream.parity;

/**
 * How one computed stage compares with its reference.
 *
 * @param stage       stage name as in the golden outputs file
 * @param maxAbsDiff  largest |actual − reference|
 * @param meanAbsDiff mean |actual − reference|
 * @param cosine      cosine similarity of the two flattened tensors (1 for two zero tensors)
 * @param tolerance   the bound {@code maxAbsDiff} had to meet
 * @param detail      why it failed when the failure is not numeric (shape mismatch), else empty
 * @param mask        true for a binary-mask comparison: then maxAbsDiff counts differing pixels, meanAbsDiff is
 *                    their fraction and cosine holds the IoU
 */
public record StageComparison(String stage, double maxAbsDiff, double meanAbsDiff, double cosine, double tolerance,
        String detail, boolean mask) implements StageVerdict {

    @Override
    public boolean passed() {
        return detail.isEmpty() && (mask || maxAbsDiff <= tolerance);
    }

    /** Compares two tensors of the same shape under float32's float-stage tolerance. */
    public static StageComparison of(String stage, long[] actualShape, float[] actual, long[] referenceShape,
            float[] reference) {
        return relative(stage, actualShape, actual, referenceShape, reference, ParityBounds.FP32.relative());
    }

    /** Compares two tensors of the same shape: max abs diff ≤ {@code relative} × (1 + max |reference|). */
    public static StageComparison relative(String stage, long[] actualShape, float[] actual, long[] referenceShape,
            float[] reference, double relative) {
        return compare(stage, actualShape, actual, referenceShape, reference, Double.NaN, relative);
    }

    /**
     * Compares under a fixed absolute bound instead of the relative one: 0 for integer and boolean stages (exact
     * match), 0.5 for pixel boxes.
     */
    public static StageComparison absolute(String stage, long[] actualShape, float[] actual, long[] referenceShape,
            float[] reference, double bound) {
        return compare(stage, actualShape, actual, referenceShape, reference, bound, Double.NaN);
    }

    /**
     * Binary masks: identical except at pixels whose reference probability lies within the bounds' flip margin of
     * 0.5 (in float32 1e-4, where a float difference far below the tolerance may flip the threshold), and an IoU of
     * at least the bounds' minimum overall.
     */
    public static StageComparison masks(String stage, long[] actualShape, boolean[] actual, long[] referenceShape,
            boolean[] reference, float[] referenceProbability, ParityBounds bounds) {
        if (!java.util.Arrays.equals(actualShape, referenceShape)) {
            return new StageComparison(stage, Double.NaN, Double.NaN, Double.NaN, 0,
                    "shape " + java.util.Arrays.toString(actualShape) + " but reference has "
                            + java.util.Arrays.toString(referenceShape), true);
        }
        long intersection = 0;
        long union = 0;
        long unexplained = 0;
        long flips = 0;
        for (int i = 0; i < actual.length; i++) {
            if (actual[i] && reference[i]) {
                intersection++;
            }
            if (actual[i] || reference[i]) {
                union++;
            }
            if (actual[i] != reference[i]) {
                flips++;
                if (Math.abs(referenceProbability[i] - 0.5f) > bounds.maskFlipMargin()) {
                    unexplained++;
                }
            }
        }
        double iou = union == 0 ? 1.0 : (double) intersection / union;
        String detail = unexplained > 0
                ? unexplained + " pixels differ away from the 0.5 boundary"
                : iou < bounds.minMaskIou() ? String.format("IoU %.6f below %.3f", iou, bounds.minMaskIou()) : "";
        return new StageComparison(stage, flips, (double) flips / Math.max(1, actual.length), iou, 0, detail, true);
    }

    private static StageComparison compare(String stage, long[] actualShape, float[] actual, long[] referenceShape,
            float[] reference, double absoluteBound, double relative) {
        if (!java.util.Arrays.equals(actualShape, referenceShape)) {
            return new StageComparison(stage, Double.NaN, Double.NaN, Double.NaN, 0,
                    "shape " + java.util.Arrays.toString(actualShape) + " but reference has "
                            + java.util.Arrays.toString(referenceShape), false);
        }
        double maxAbs = 0;
        double sumAbs = 0;
        double maxRef = 0;
        double dot = 0;
        double na = 0;
        double nr = 0;
        for (int i = 0; i < actual.length; i++) {
            double a = actual[i];
            double r = reference[i];
            double d = Math.abs(a - r);
            if (Double.isNaN(d)) {
                d = Double.POSITIVE_INFINITY;
            }
            maxAbs = Math.max(maxAbs, d);
            sumAbs += d;
            maxRef = Math.max(maxRef, Math.abs(r));
            dot += a * r;
            na += a * a;
            nr += r * r;
        }
        double cosine = na == 0 && nr == 0 ? 1.0 : dot / Math.sqrt(na * nr);
        double mean = actual.length == 0 ? 0 : sumAbs / actual.length;
        double tolerance = Double.isNaN(absoluteBound) ? relative * (1 + maxRef) : absoluteBound;
        return new StageComparison(stage, maxAbs, mean, cosine, tolerance, "", false);
    }

    /** One line for the parity report: name, max abs diff, mean abs diff, cosine, PASS/FAIL. */
    @Override
    public String reportLine() {
        if (mask) {
            return String.format("%-44s flips %d  IoU %.6f  %s", stage, (long) maxAbsDiff, cosine,
                    passed() ? "PASS" : "FAIL  " + detail);
        }
        if (!detail.isEmpty()) {
            return String.format("%-44s FAIL  %s", stage, detail);
        }
        return String.format("%-44s max %.3e  mean %.3e  cos %.7f  %s", stage, maxAbsDiff, meanAbsDiff, cosine,
                passed() ? "PASS" : "FAIL (tol " + String.format("%.1e", tolerance) + ")");
    }
}
