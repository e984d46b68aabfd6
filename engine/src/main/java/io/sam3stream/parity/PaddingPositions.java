package io.sam3stream.parity;

import io.sam3stream.weights.RawTensor;
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
     * Whether {@code stage} is one whose padding rows the engine leaves at zero.
     *
     * @param stage the golden stage name, {@code <case>.<stage>}
     */
    public static boolean covers(String stage) {
        return suffixOf(stage) != null;
    }

    /**
     * The reference values of {@code stage} as the engine computes them.
     *
     * @param stage     the golden stage name, {@code <case>.<stage>}
     * @param shape     the reference's shape
     * @param reference the reference's values; returned unchanged for every other stage
     * @param outputs   the golden outputs by name, where {@code <case>.text.language_mask} (B, L) is read (it
     *                  throws where the case has none)
     */
    public static float[] asComputed(String stage, long[] shape, float[] reference,
            Function<String, RawTensor> outputs) {
        if (!covers(stage)) {
            return reference;
        }
        Rows padding = Rows.of(stage, shape, outputs);
        float[] computed = reference.clone();
        for (int i = 0; i < computed.length; i++) {
            if (padding.isPadding(i)) {
                computed[i] = 0f;
            }
        }
        return computed;
    }

    /**
     * A sampled reference of {@code stage} as the engine computes it: the samples on padding rows taken as zero. Its
     * statistics stay upstream's (they cover rows the engine does not compute), so only the samples are comparable.
     *
     * @param stage     the golden stage name, {@code <case>.<stage>}
     * @param reference the sampled reference; returned unchanged for every other stage
     * @param outputs   the golden outputs by name, where {@code <case>.text.language_mask} (B, L) is read
     */
    public static SampledStage asComputed(String stage, SampledStage reference,
            Function<String, RawTensor> outputs) {
        if (!covers(stage)) {
            return reference;
        }
        Rows padding = Rows.of(stage, reference.shape(), outputs);
        long[] indices = reference.indices();
        float[] values = reference.values();
        for (int i = 0; i < values.length; i++) {
            if (padding.isPadding(indices[i])) {
                values[i] = 0f;
            }
        }
        return new SampledStage(reference.shape(), indices, values, reference.statistics());
    }

    private static String suffixOf(String stage) {
        for (String suffix : STAGES.keySet()) {
            if (stage.endsWith("." + suffix)) {
                return suffix;
            }
        }
        return null;
    }

    /** Which flat elements of a three-dimensional text stage lie on a padding position. */
    private record Rows(boolean batchFirst, long batch, long length, long channels, boolean[] padding,
            int textLength) {

        static Rows of(String stage, long[] shape, Function<String, RawTensor> outputs) {
            String suffix = suffixOf(stage);
            String goldenCase = stage.substring(0, stage.length() - suffix.length());
            RawTensor mask = outputs.apply(goldenCase + MASK);
            boolean batchFirst = STAGES.get(suffix);
            return new Rows(batchFirst, shape[batchFirst ? 0 : 1], shape[batchFirst ? 1 : 0], shape[2],
                    mask.toBooleans(), Math.toIntExact(mask.shape()[1]));
        }

        boolean isPadding(long flatIndex) {
            long row = flatIndex / channels;
            long b = batchFirst ? row / length : row % batch;
            long position = batchFirst ? row % length : row / batch;
            return position < textLength && padding[Math.toIntExact(b * textLength + position)];
        }
    }
}
