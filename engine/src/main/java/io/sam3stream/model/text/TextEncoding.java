package io.sam3stream.model.text;

import ai.djl.ndarray.NDArray;

/**
 * The text side of a batch of prompts, batch-first.
 *
 * @param features (B, L, d_model) token states projected to the model width (upstream {@code language_features},
 *                 which upstream keeps sequence-first)
 * @param mask     (B, L) boolean, true where the token is padding (PyTorch key-padding convention)
 */
public record TextEncoding(NDArray features, NDArray mask) implements AutoCloseable {

    @Override
    public void close() {
        features.close();
        mask.close();
    }
}
