package io.sam3stream.parity;

import io.sam3stream.weights.RawTensor;
import java.util.Arrays;
import java.util.Map;
import java.util.function.Function;

/**
 * The stages that the engine leaves at zero on the text's padding positions: {@code text.transformer_tokens}
 * (B, L, C), {@code text.language_features} (L, B, C) and the text part (the first L positions) of
 * {@code prompt.feats} (L + G, B, C). Upstream computes values there that no later module reads (the text
 * transformer is causal and every consumer masks padding out), so the engine skips them; a reference of one of these
 * stages is compared with those rows taken as zero, and every other position as it is.
 */
public final class PaddingPositions {

    /** Stage suffix → whether it is batch-first (else sequence-first). */
    private static final Map<String, Boolean> STAGES = Map.of(
            "text.transformer_tokens", true,
            "text.language_features", false,
            "prompt.feats", false);
    private static final String MASK = "text.language_mask";

    private PaddingPositions() {}

    /**
     * The reference values of {@code stage} as the engine computes them.
     *
     * @param stage     the golden stage name, {@code <case>.<stage>}
     * @param shape     the reference's shape
     * @param reference the reference's values; returned unchanged for every other stage
     * @param outputs   the golden outputs by name, where {@code <case>.text.language_mask} (B, L) is read
     * @throws IllegalArgumentException if the outputs hold no text mask for the stage's case
     */
    public static float[] asComputed(String stage, long[] shape, float[] reference,
            Function<String, RawTensor> outputs) {
        for (Map.Entry<String, Boolean> padded : STAGES.entrySet()) {
            if (stage.endsWith("." + padded.getKey())) {
                String goldenCase = stage.substring(0, stage.length() - padded.getKey().length());
                return zeroed(reference, shape, padded.getValue(), outputs.apply(goldenCase + MASK));
            }
        }
        return reference;
    }

    private static float[] zeroed(float[] reference, long[] shape, boolean batchFirst, RawTensor mask) {
        boolean[] padding = mask.toBooleans();
        int textLength = Math.toIntExact(mask.shape()[1]);
        int batch = Math.toIntExact(shape[batchFirst ? 0 : 1]);
        int length = Math.toIntExact(shape[batchFirst ? 1 : 0]);
        int channels = Math.toIntExact(shape[2]);
        float[] computed = reference.clone();
        for (int b = 0; b < batch; b++) {
            for (int position = 0; position < textLength; position++) {
                if (padding[b * textLength + position]) {
                    int row = batchFirst ? b * length + position : position * batch + b;
                    Arrays.fill(computed, row * channels, (row + 1) * channels, 0f);
                }
            }
        }
        return computed;
    }
}
