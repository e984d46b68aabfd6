package io.sam3stream.model.decoder;

import ai.djl.ndarray.NDArray;

/**
 * What the decoder hands to the heads, batch-first. The caller owns the arrays and frees them with {@link #close()}.
 *
 * @param hs             every layer's queries after the output LayerNorm, (L, B, Q, d)
 * @param predBoxes      the boxes refined by the last layer, cxcywh in [0, 1], (B, Q, 4)
 * @param presenceLogits every layer's presence logit, unclamped, (L, B, 1)
 */
public record DecoderOutput(NDArray hs, NDArray predBoxes, NDArray presenceLogits) implements AutoCloseable {

    /** The last layer's queries (B, Q, d): a new view of {@link #hs()} that the caller closes. */
    public NDArray lastHs() {
        return hs.get(hs.getShape().get(0) - 1);
    }

    /** The last layer's presence logit (B, 1): a new view of {@link #presenceLogits()} that the caller closes. */
    public NDArray lastPresenceLogit() {
        return presenceLogits.get(presenceLogits.getShape().get(0) - 1);
    }

    @Override
    public void close() {
        hs.close();
        predBoxes.close();
        presenceLogits.close();
    }
}
