package io.sam3stream.model.heads;

import ai.djl.ndarray.NDArray;

/**
 * The raw detections of B prompts of one image, in upstream's {@code forward_grounding} layouts. The caller owns the
 * arrays and frees them with {@link #close()}.
 *
 * @param predLogits    per-query class logits, without presence, (B, Q, 1)
 * @param predBoxes     boxes cxcywh normalised to the model input, (B, Q, 4)
 * @param presenceLogit the prompt's presence logit (B, 1)
 * @param predMasks     mask logits at 4× the feature grid, (B, Q, 4G, 4G)
 */
public record GroundingOutput(NDArray predLogits, NDArray predBoxes, NDArray presenceLogit, NDArray predMasks)
        implements AutoCloseable {

    /** Number of prompts B. */
    public int prompts() {
        return Math.toIntExact(predLogits.getShape().get(0));
    }

    @Override
    public void close() {
        predLogits.close();
        predBoxes.close();
        presenceLogit.close();
        predMasks.close();
    }
}
