package io.sam3stream.parity;

import io.sam3stream.model.result.ImageSize;
import io.sam3stream.weights.RawTensor;
import java.util.ArrayList;
import java.util.List;

/**
 * Compares recorded stages with a full-size golden folder's sampled outputs ({@link SampledReference}). The rules:
 * <ul>
 *   <li>large stages: every sampled value, and the whole tensor's mean, std, min and max, within 1e-3 × the
 *       reference tensor's std ({@link SampledComparison});</li>
 *   <li>small float stages (text features, prompt and geometry features, decoder outputs, logits, boxes, scores)
 *       within 1e-4 absolute; pixel boxes are first divided by [W, H, W, H], so they meet
 *       the same bound as the normalised boxes they are scaled from;</li>
 *   <li>boolean and integer stages exactly: among them {@code keep} and {@code query_index}, the kept queries;</li>
 *   <li>{@code mask_area} (pixels of each binary mask) and {@code mask_prob_sum} (its threshold-free companion, in
 *       the same pixel units) within 0.1 % of the image's pixel count.</li>
 * </ul>
 * The text stages' padding rows are compared as zero ({@link PaddingPositions}); where such a stage is sampled, its
 * samples alone, since the reference's statistics include those rows. Those are float32's figures; a
 * bfloat16 run is held to {@link ParityBounds#BF16}'s (sampled stages within 2e-2 × std, small float stages within
 * 1e-2 × (1 + max|ref|), mask areas also within 2 % of the largest reference area; the kept queries still exactly).
 */
public final class SampledParityCheck {

    private SampledParityCheck() {}

    /**
     * Compares every stage of {@code reference} with what {@code recorded} holds.
     *
     * @param image the original image's size, which pixel boxes and mask areas are measured against
     */
    public static ParityReport compare(SampledReference reference, StageRecorder recorded, ImageSize image) {
        return compare(reference, recorded, image, ParityBounds.FP32);
    }

    /** Compares every stage of {@code reference} with what {@code recorded} holds, under {@code bounds}. */
    public static ParityReport compare(SampledReference reference, StageRecorder recorded, ImageSize image,
            ParityBounds bounds) {
        List<StageVerdict> verdicts = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        reference.sampledStages().forEach((stage, ref) -> {
            SampledStage actual = recorded.sampledStages().get(stage);
            if (actual == null) {
                missing.add(stage);
            } else if (PaddingPositions.covers(stage)) {
                verdicts.add(SampledComparison.ofSamples(stage, actual,
                        PaddingPositions.asComputed(stage, ref, reference::whole), bounds.sampledStdFraction()));
            } else {
                verdicts.add(SampledComparison.of(stage, actual, ref, bounds.sampledStdFraction()));
            }
        });
        for (String stage : reference.wholeStages()) {
            RecordedStage actual = recorded.stages().get(stage);
            if (actual == null) {
                missing.add(stage);
            } else {
                verdicts.add(compareWhole(stage, actual, reference, image, bounds));
            }
        }
        return new ParityReport(verdicts, missing);
    }

    private static StageComparison compareWhole(String stage, RecordedStage actual, SampledReference references,
            ImageSize image, ParityBounds bounds) {
        RawTensor ref = references.whole(stage);
        float[] reference = PaddingPositions.asComputed(stage, ref.shape(), ref.toFloats(), references::whole);
        if (stage.endsWith(".mask_area") || stage.endsWith(".mask_prob_sum")) {
            double bound = Math.max(bounds.maskAreaImageFraction() * image.width() * image.height(),
                    bounds.maskAreaRelative() * maxAbs(reference));
            return StageComparison.absolute(stage, actual.shape(), actual.values(), ref.shape(), reference, bound);
        }
        if (stage.endsWith(".boxes_xyxy_px")) {
            float[] normalisedReference = normalised(reference, image);
            return StageComparison.absolute(stage, actual.shape(), normalised(actual.values(), image), ref.shape(),
                    normalisedReference, bounds.smallStageBound(maxAbs(normalisedReference)));
        }
        double bound = ref.dtype().isFloating() ? bounds.smallStageBound(maxAbs(reference)) : 0;
        return StageComparison.absolute(stage, actual.shape(), actual.values(), ref.shape(), reference, bound);
    }

    private static double maxAbs(float[] values) {
        double max = 0;
        for (float v : values) {
            max = Math.max(max, Math.abs(v));
        }
        return max;
    }

    /** xyxy pixel boxes divided by [W, H, W, H]. */
    private static float[] normalised(float[] xyxy, ImageSize image) {
        float[] out = new float[xyxy.length];
        for (int i = 0; i < xyxy.length; i++) {
            out[i] = xyxy[i] / (i % 2 == 0 ? image.width() : image.height());
        }
        return out;
    }
}
