package io.sam3stream.parity;

import io.sam3stream.weights.RawTensor;
import io.sam3stream.weights.SafetensorsFile;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Compares recorded stages with a golden folder's full outputs, each under the rule its kind calls for: float
 * stages within 1e-4 × (1 + max|ref|); boolean and integer stages exactly; pixel boxes within 0.5 px; binary
 * masks by {@link StageComparison#masks}.
 */
public final class ParityCheck {

    private ParityCheck() {}

    /** Compares every stage of {@code reference} (an {@code outputs.safetensors}) with what was recorded. */
    public static ParityReport compare(SafetensorsFile reference, Map<String, RecordedStage> recorded) {
        List<StageVerdict> comparisons = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        for (String stage : reference.names()) {
            RecordedStage actual = recorded.get(stage);
            if (actual == null) {
                missing.add(stage);
                continue;
            }
            RawTensor ref = reference.get(stage);
            comparisons.add(compareOne(stage, actual, ref, reference));
        }
        return new ParityReport(comparisons, missing);
    }

    private static StageComparison compareOne(String stage, RecordedStage actual, RawTensor ref,
            SafetensorsFile reference) {
        if (stage.endsWith(".masks") && stage.contains(".post_t")) {
            String probabilities = stage.substring(0, stage.length() - "masks".length()) + "mask_probs";
            return StageComparison.masks(stage, actual.shape(), toBooleans(actual.values()), ref.shape(),
                    ref.toBooleans(), reference.get(probabilities).toFloats());
        }
        if (!ref.dtype().isFloating()) {
            return StageComparison.absolute(stage, actual.shape(), actual.values(), ref.shape(), ref.toFloats(), 0);
        }
        if (stage.endsWith(".boxes_xyxy_px")) {
            return StageComparison.absolute(stage, actual.shape(), actual.values(), ref.shape(), ref.toFloats(), 0.5);
        }
        return StageComparison.of(stage, actual.shape(), actual.values(), ref.shape(), ref.toFloats());
    }

    private static boolean[] toBooleans(float[] values) {
        boolean[] b = new boolean[values.length];
        for (int i = 0; i < values.length; i++) {
            b[i] = values[i] != 0;
        }
        return b;
    }
}
