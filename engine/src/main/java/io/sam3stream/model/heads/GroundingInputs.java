package io.sam3stream.model.heads;

import ai.djl.ndarray.NDArray;
import java.util.List;

/**
 * What the heads read for B prompts of one image, batch-first. The arrays stay owned by the caller.
 *
 * @param memory      fused image memory from the encoder, (B, G·G, d), token index y·G + x
 * @param memoryPos   sine position encoding of the 1× level, (1 or B, G·G, d)
 * @param prompt      prompt tokens given to the encoder, text then geometry (B, S, d)
 * @param promptMask  prompt key-padding mask (B, S), true = padding
 * @param levelTerms  the segmentation head's per-image terms of the neck's 4× and 2× levels
 *                    ({@link GroundingHeads#levelTerms}), finest first, (1 or B, d, 4G, 4G) and (1 or B, d, 2G, 2G);
 *                    the image's single copy broadcasts over the prompts
 */
public record GroundingInputs(NDArray memory, NDArray memoryPos, NDArray prompt, NDArray promptMask,
        List<NDArray> levelTerms) {

    public GroundingInputs {
        levelTerms = List.copyOf(levelTerms);
    }
}
