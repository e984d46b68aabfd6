package io.sam3stream.model.result;

import java.util.Objects;

/**
 * One detected instance of a prompt.
 *
 * @param queryIndex the decoder query that produced it (0..Q−1), which fixes upstream's result order
 * @param score      sigmoid(class logit) × sigmoid(presence logit)
 * @param box        its box in original-image pixels
 * @param maskLogits its mask logits at the head's native resolution
 */
public record Instance(int queryIndex, float score, PixelBox box, MaskLogits maskLogits) {

    public Instance {
        if (queryIndex < 0) {
            throw new IllegalArgumentException("negative query index " + queryIndex);
        }
        Objects.requireNonNull(box, "box");
        Objects.requireNonNull(maskLogits, "maskLogits");
    }
}
