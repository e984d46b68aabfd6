package io.sam3stream.model.neck;

import ai.djl.ndarray.NDArray;
import java.util.List;

/**
 * Everything the prompt side needs from one image (upstream {@code SAM3VLBackbone.forward_image}'s
 * {@code backbone_fpn}, {@code vision_pos_enc} and {@code vision_features}, plus the trunk output). Batch is the
 * number of images (1 when serving); prompt-side modules broadcast it over prompts.
 *
 * @param fpn   the neck levels (B, d, H_j, W_j), finest first: index j is {@link NeckScale#values()}[j], so the
 *              4×, 2× and 1× levels are 0, 1 and 2, and a fourth (0.5×) level is present only when computed
 * @param pos   the sine position encoding of each level, same shapes
 * @param trunk the ViT output (B, C, G, G)
 */
public record ImageFeatures(List<NDArray> fpn, List<NDArray> pos, NDArray trunk) implements AutoCloseable {

    public ImageFeatures {
        fpn = List.copyOf(fpn);
        pos = List.copyOf(pos);
        if (fpn.size() != pos.size() || fpn.size() <= NeckScale.ONE.ordinal()) {
            throw new IllegalArgumentException("need at least the 4x, 2x and 1x levels with one encoding each, got "
                    + fpn.size() + " levels and " + pos.size() + " encodings");
        }
    }

    /** The 1× level (upstream {@code vision_features}), (B, d, G, G). */
    public NDArray visionFeatures() {
        return fpn.get(NeckScale.ONE.ordinal());
    }

    /** The 1× level's position encoding, (B, d, G, G). */
    public NDArray visionPos() {
        return pos.get(NeckScale.ONE.ordinal());
    }

    /** Closes every level, every encoding and the trunk output. */
    @Override
    public void close() {
        fpn.forEach(NDArray::close);
        pos.forEach(NDArray::close);
        trunk.close();
    }
}
