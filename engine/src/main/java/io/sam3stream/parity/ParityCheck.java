package io.sam3stream.parity;

import io.sam3stream.weights.RawTensor;
import io.sam3stream.weights.SafetensorsFile;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Compares recorded stages with a golden folder's full outputs, each under the rule its kind calls for, with the
 * figures of the {@link ParityBounds} of the run's precision (float32's in brackets): float stages within
 * relative × (1 + max|ref|) (1e-4); boolean and integer stages exactly; pixel boxes within a few tenths of a pixel
 * (0.5 px); binary masks by {@link StageComparison#masks}; the text stages with their padding rows taken as zero
 * ({@link PaddingPositions}).
 */
public final class ParityCheck {

    private ParityCheck() {}

    /** Compares every stage of {@code reference} (an {@code outputs.safetensors}) under float32's bounds. */
    public static ParityReport compare(SafetensorsFile reference, Map<String, RecordedStage> recorded) {
        return compare(reference, recorded, ParityBounds.FP32);
    }

    /** Compares every stage of {@code reference} (an {@code outputs.safetensors}) with what was recorded. */
    public static ParityReport compare(SafetensorsFile reference, Map<String, RecordedStage> recorded,
            ParityBounds bounds) {
        List<StageVerdict> comparisons = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        for (String stage : reference.names()) {
            RecordedStage actual = recorded.get(stage);
            if (actual == null) {
                missing.add(stage);
                continue;
            }
            RawTensor ref = reference.get(stage);
            comparisons.add(compareOne(stage, actual, ref, reference, bounds));
        }
        return new ParityReport(comparisons, missing);
    }

    private static StageComparison compareOne(String stage, RecordedStage actual, RawTensor ref,
            SafetensorsFile reference, ParityBounds bounds) {
        if (stage.endsWith(".masks") && stage.contains(".post_t")) {
            String probabilities = stage.substring(0, stage.length() - "masks".length()) + "mask_probs";
            return StageComparison.masks(stage, actual.shape(), toBooleans(actual.values()), ref.shape(),
                    ref.toBooleans(), reference.get(probabilities).toFloats(), bounds);
        }
        if (!ref.dtype().isFloating()) {
            return StageComparison.absolute(stage, actual.shape(), actual.values(), ref.shape(), ref.toFloats(), 0);
        }
        if (stage.endsWith(".boxes_xyxy_px")) {
            return StageComparison.absolute(stage, actual.shape(), actual.values(), ref.shape(), ref.toFloats(),
                    bounds.boxPixels());
        }
        return StageComparison.relative(stage, actual.shape(), actual.values(), ref.shape(),
                PaddingPositions.asComputed(stage, ref.shape(), ref.toFloats(), reference::get), bounds.relative());
    }

    private static boolean[] toBooleans(float[] values) {
        boolean[] b = new boolean[values.length];
        for (int i = 0; i < values.length; i++) {
            b[i] = values[i] != 0;
        }
        return b;
    }
}
