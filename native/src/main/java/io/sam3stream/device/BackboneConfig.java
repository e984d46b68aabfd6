package io.sam3stream.device;

import java.util.Arrays;

/**
 * Sizes of the ViT trunk island ({@code sam3n_vit_config}; upstream {@code _create_vit_backbone}).
 *
 * @param imageSize         input side R in pixels; inputs must be exactly R x R
 * @param pretrainImageSize side the absolute position embedding was trained at; its grid is tiled over the input
 * @param patchSize         patch side in pixels
 * @param embedDim          token width C
 * @param depth             number of blocks
 * @param numHeads          attention heads per block
 * @param mlpHidden         MLP hidden width, {@code int(embedDim * mlp_ratio)}
 * @param windowSize        window side in tokens of the windowed blocks
 * @param globalBlocks      indices of the global-attention blocks; the output is taken after the last one
 */
public record BackboneConfig(int imageSize, int pretrainImageSize, int patchSize, int embedDim, int depth,
        int numHeads, int mlpHidden, int windowSize, int[] globalBlocks) {

    public BackboneConfig {
        globalBlocks = globalBlocks.clone();
    }

    @Override
    public int[] globalBlocks() {
        return globalBlocks.clone();
    }

    /** Tokens per side of the trunk's output, R / patch. */
    public int grid() {
        return imageSize / patchSize;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BackboneConfig b && imageSize == b.imageSize && pretrainImageSize == b.pretrainImageSize
                && patchSize == b.patchSize && embedDim == b.embedDim && depth == b.depth && numHeads == b.numHeads
                && mlpHidden == b.mlpHidden && windowSize == b.windowSize
                && Arrays.equals(globalBlocks, b.globalBlocks);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(new int[] {imageSize, pretrainImageSize, patchSize, embedDim, depth, numHeads,
            mlpHidden, windowSize}) + Arrays.hashCode(globalBlocks);
    }

    @Override
    public String toString() {
        return "BackboneConfig[image=" + imageSize + ", pretrain=" + pretrainImageSize + ", patch=" + patchSize
                + ", dim=" + embedDim + ", depth=" + depth + ", heads=" + numHeads + ", mlp=" + mlpHidden
                + ", window=" + windowSize + ", global=" + Arrays.toString(globalBlocks) + "]";
    }
}
