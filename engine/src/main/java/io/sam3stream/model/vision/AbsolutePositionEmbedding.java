package io.sam3stream.model.vision;

import ai.djl.ndarray.NDArray;
import io.sam3stream.model.nn.Scopes;

/**
 * The ViT's absolute position embedding as added to the patch tokens (upstream {@code get_abs_pos} with
 * {@code tiling=True}, {@code retain_cls_token=False}): the pretraining grid of P×P embeddings is repeated over the
 * G×G token grid, so token (y, x) gets embedding (y mod P, x mod P). It is not interpolated.
 */
public final class AbsolutePositionEmbedding {

    private AbsolutePositionEmbedding() {}

    /**
     * @param posEmbed     (1, P²+1, C) with the cls row first, as in {@code sam3.pt}, or (1, P², C) without it, as
     *                     in the Hugging Face file
     * @param pretrainGrid P
     * @param grid         G
     * @return (1, G, G, C)
     */
    public static NDArray tiled(NDArray posEmbed, int pretrainGrid, int grid) {
        long[] s = posEmbed.getShape().getShape();
        long patches = (long) pretrainGrid * pretrainGrid;
        if (s.length != 3 || s[0] != 1 || (s[1] != patches && s[1] != patches + 1)) {
            throw new IllegalArgumentException("pos_embed " + posEmbed.getShape() + " does not hold a " + pretrainGrid
                    + "x" + pretrainGrid + " grid (with or without a cls row)");
        }
        long repeats = grid / pretrainGrid + 1;
        return Scopes.keep(() -> {
            NDArray gridRows = s[1] == patches ? posEmbed : posEmbed.get(":, 1:, :");
            return gridRows.reshape(1, pretrainGrid, pretrainGrid, s[2])
                    .tile(new long[] {1, repeats, repeats, 1})
                    .get(":, :{}, :{}, :", grid, grid)
                    .duplicate();
        });
    }
}
