package io.sam3stream.model.neck;

import ai.djl.ndarray.NDArray;
import java.util.List;

/**
 * The neck's output for one image: upstream {@code SAM3VLBackbone.forward_image}'s {@code backbone_fpn} and the 1×
 * level's {@code vision_pos_enc}. Batch is the number of images. The finer levels' position encodings are not kept
 * (only the video tracker would read them); the neck emits them as stages for parity runs.
 *
 * @param fpn       the neck levels (B, d, H_j, W_j), finest first: index j is {@link NeckScale#values()}[j], so
 *                  the 4×, 2× and 1× levels are 0, 1 and 2, and a fourth (0.5×) level is present only when
 *                  computed
 * @param visionPos the sine position encoding of the 1× level (upstream {@code vision_pos_enc[-1]}), (B, d, G, G)
 */
public record ImageFeatures(List<NDArray> fpn, NDArray visionPos) implements AutoCloseable {

    public ImageFeatures {
        fpn = List.copyOf(fpn);
        if (fpn.size() <= NeckScale.ONE.ordinal()) {
            throw new IllegalArgumentException("need at least the 4x, 2x and 1x levels, got " + fpn.size());
        }
    }

    /** The 1× level (upstream {@code vision_features}), (B, d, G, G). */
    public NDArray visionFeatures() {
        return fpn.get(NeckScale.ONE.ordinal());
    }

    /** The levels finer than 1×, finest first: the 4× and 2× levels. */
    public List<NDArray> finerLevels() {
        return fpn.subList(0, NeckScale.ONE.ordinal());
    }

    /** Closes every level and the encoding. */
    @Override
    public void close() {
        fpn.forEach(NDArray::close);
        visionPos.close();
    }
}
