package io.sam3stream.model.neck;

import ai.djl.ndarray.NDArray;
import java.util.List;

/**
 * What the prompt side reads from one image, and all a cached image holds: upstream
 * {@code SAM3VLBackbone.forward_image}'s {@code backbone_fpn} and the 1× level's {@code vision_pos_enc}, and the
 * {@link ImageMemo} of what the prompt side derived from them alone. Batch is the number of images (1 when
 * serving); prompt-side modules broadcast it over prompts.
 *
 * <p>The image model never reads the finer levels' position encodings (only the video tracker would) nor the ViT
 * output once the neck has run, so neither is kept: at 1008² they would add 0.13 GB to every cached image. The
 * neck still emits them as stages for parity runs.
 *
 * @param fpn       the neck levels (B, d, H_j, W_j), finest first: index j is {@link NeckScale#values()}[j], so
 *                  the 4×, 2× and 1× levels are 0, 1 and 2, and a fourth (0.5×) level is present only when
 *                  computed
 * @param visionPos the sine position encoding of the 1× level (upstream {@code vision_pos_enc[-1]}), (B, d, G, G)
 * @param memo      what the prompt side computed from this image alone, for the next prompts on it
 */
public record ImageFeatures(List<NDArray> fpn, NDArray visionPos, ImageMemo memo) implements AutoCloseable {

    public ImageFeatures {
        fpn = List.copyOf(fpn);
        if (fpn.size() <= NeckScale.ONE.ordinal()) {
            throw new IllegalArgumentException("need at least the 4x, 2x and 1x levels, got " + fpn.size());
        }
    }

    /** Features of a freshly encoded image, with an empty memo in the manager of its position encoding. */
    public ImageFeatures(List<NDArray> fpn, NDArray visionPos) {
        this(fpn, visionPos, new ImageMemo(visionPos.getManager()));
    }

    /** The 1× level (upstream {@code vision_features}), (B, d, G, G). */
    public NDArray visionFeatures() {
        return fpn.get(NeckScale.ONE.ordinal());
    }

    /** Closes every level, the encoding and the memo. */
    @Override
    public void close() {
        fpn.forEach(NDArray::close);
        visionPos.close();
        memo.close();
    }
}
