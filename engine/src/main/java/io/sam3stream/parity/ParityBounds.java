package io.sam3stream.parity;

import io.sam3stream.model.nn.Precision;

/**
 * The bounds a run must meet against upstream's float32 outputs: float32's, which allow float rounding only, or
 * bfloat16's, which allow what 8 bits of mantissa cost and still demand the same answers (the same kept queries,
 * boxes within a pixel, masks that overlap their reference almost entirely). The bounds follow the precision the
 * model ran in; they are never chosen to make a run pass.
 *
 * @param name                 how reports name these bounds
 * @param relative             full float stages: max |diff| ≤ relative × (1 + max |ref|)
 * @param boxPixels            pixel boxes: max |diff| in pixels
 * @param maskFlipMargin       binary masks: a pixel may differ only where the reference probability is within this
 *                             of 0.5 (0.5 allows any pixel; the IoU bound still holds)
 * @param minMaskIou           binary masks: smallest IoU with the reference
 * @param sampledStdFraction   sampled large stages: every difference ≤ this × the reference's std
 * @param smallAbsolute        sampled small float stages: absolute part of the bound
 * @param smallRelative        sampled small float stages: part of the bound relative to 1 + max |ref|
 * @param maskAreaImageFraction sampled mask areas: bound as a fraction of the image's pixels
 * @param maskAreaRelative     sampled mask areas: bound as a fraction of the stage's largest reference area (an IoU
 *                             of 0.98 allows 2 %)
 */
public record ParityBounds(String name, double relative, double boxPixels, double maskFlipMargin, double minMaskIou,
        double sampledStdFraction, double smallAbsolute, double smallRelative, double maskAreaImageFraction,
        double maskAreaRelative) {

    /** Float32: float rounding only. */
    public static final ParityBounds FP32 = new ParityBounds("fp32", 1e-4, 0.5, 1e-4, 0.999, 1e-3, 1e-4, 0, 1e-3, 0);

    /** Bfloat16: 1e-2 relative, 1 px boxes, mask IoU ≥ 0.98, sampled stages within 2e-2 × std. */
    public static final ParityBounds BF16 = new ParityBounds("bf16", 1e-2, 1.0, 0.5, 0.98, 2e-2, 0, 1e-2, 1e-3, 0.02);

    /** The bounds of a run in {@code precision}. */
    public static ParityBounds of(Precision precision) {
        return precision.isFp32() ? FP32 : BF16;
    }

    /** The bound on a small float stage whose reference has {@code maxAbsReference} as its largest magnitude. */
    double smallStageBound(double maxAbsReference) {
        return smallAbsolute + smallRelative * (1 + maxAbsReference);
    }
}
