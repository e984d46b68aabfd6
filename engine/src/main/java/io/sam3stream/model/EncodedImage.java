package io.sam3stream.model;

import ai.djl.ndarray.NDArray;
import io.sam3stream.model.neck.ImageMemo;
import java.util.List;

/**
 * What {@link Sam3Model#ground} reads of one image, and all a cached image holds: the neck's 1× level (upstream
 * {@code vision_features}) and its sine position encoding, the segmentation head's terms of the 4× and 2× levels in
 * place of the levels themselves, and the {@link ImageMemo} of what the prompt side derived from the image alone.
 * Batch is the number of images (1 when serving); prompt-side modules broadcast it over prompts.
 *
 * <p>The finer levels are read only through the pixel decoder's convolution of them, which is the same for every
 * prompt, so they are kept convolved ({@link io.sam3stream.model.heads.GroundingHeads#levelTerms}): the same memory
 * (half of it where the convolutions are bfloat16), and each prompt's pixel decoder no longer convolves them.
 * Nothing reads the finer levels' position encodings (only the video tracker would) nor the ViT output once the
 * neck has run, so neither is kept: at 1008² they would add 0.13 GB to every cached image. The encoders still emit
 * them as stages for parity runs.
 *
 * @param visionFeatures the 1× level (B, d, G, G)
 * @param visionPos      the 1× level's position encoding (upstream {@code vision_pos_enc[-1]}), (B, d, G, G)
 * @param levelTerms     the segmentation head's terms of the 4× and 2× levels, finest first
 * @param memo           what the prompt side computed from this image alone, for the next prompts on it
 */
public record EncodedImage(NDArray visionFeatures, NDArray visionPos, List<NDArray> levelTerms, ImageMemo memo)
        implements AutoCloseable {

    public EncodedImage {
        levelTerms = List.copyOf(levelTerms);
    }

    /** Closes the features, the terms and the memo. */
    @Override
    public void close() {
        visionFeatures.close();
        visionPos.close();
        levelTerms.forEach(NDArray::close);
        memo.close();
    }
}
