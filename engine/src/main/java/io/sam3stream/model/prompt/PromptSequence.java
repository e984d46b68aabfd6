package io.sam3stream.model.prompt;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDArrays;
import ai.djl.ndarray.NDList;
import io.sam3stream.model.nn.StageLayouts;
import io.sam3stream.model.nn.StageSink;
import io.sam3stream.model.text.TextEncoding;

/**
 * The prompt that the fusion encoder, the decoder, the scoring and the segmentation head attend to (upstream
 * {@code Sam3Image._encode_prompt}): the text tokens followed by the geometry tokens, batch-first. Text padding
 * stays where it is (inside the sequence), so consumers must use the mask.
 *
 * @param features (B, Lt + Lg, d)
 * @param mask     (B, Lt + Lg) boolean, true = padding
 */
public record PromptSequence(NDArray features, NDArray mask) implements AutoCloseable {

    /**
     * Concatenates text and geometry encodings of the same prompts. Stages: {@code prompt.feats} (L, B, d)
     * sequence-first and {@code prompt.mask} (B, L).
     *
     * @throws IllegalArgumentException if the two encodings hold different numbers of prompts
     */
    public static PromptSequence assemble(TextEncoding text, GeometryEncoding geometry, StageSink sink) {
        long textBatch = text.features().getShape().get(0);
        long geometryBatch = geometry.features().getShape().get(0);
        if (textBatch != geometryBatch) {
            throw new IllegalArgumentException(textBatch + " text prompts but " + geometryBatch
                    + " geometric prompts");
        }
        NDArray features = NDArrays.concat(new NDList(text.features(), geometry.features()), 1);
        NDArray mask = NDArrays.concat(new NDList(text.mask(), geometry.mask()), 1);
        StageLayouts.recordSequenceFirst(sink, "prompt.feats", features);
        sink.record("prompt.mask", mask);
        return new PromptSequence(features, mask);
    }

    @Override
    public void close() {
        features.close();
        mask.close();
    }
}
