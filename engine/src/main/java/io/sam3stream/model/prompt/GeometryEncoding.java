package io.sam3stream.model.prompt;

import ai.djl.ndarray.NDArray;

/**
 * The encoded geometric prompts of a batch, batch-first.
 *
 * @param features (B, N+1, d): per prompt its boxes in order, then the CLS token, then padding slots up to the
 *                 largest box count N in the batch (masked; their values carry no meaning)
 * @param mask     (B, N+1) boolean, true = padding
 */
public record GeometryEncoding(NDArray features, NDArray mask) implements AutoCloseable {

    @Override
    public void close() {
        features.close();
        mask.close();
    }
}
