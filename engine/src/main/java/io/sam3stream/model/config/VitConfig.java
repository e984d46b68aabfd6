package io.sam3stream.model.config;

import java.util.Arrays;

/**
 * Hyper-parameters of the ViT image trunk (upstream {@code _create_vit_backbone}).
 *
 * @param imgSize         input side in pixels; the RoPE tables are sized for it, so inputs must be exactly this
 * @param pretrainImgSize side the absolute position embedding was trained at (its grid is tiled over the input)
 * @param patchSize       patch side in pixels
 * @param embedDim        token width
 * @param depth           number of blocks
 * @param numHeads        attention heads per block
 * @param mlpRatio        MLP hidden width over {@code embedDim} (truncated to an int, as upstream)
 * @param globalBlocks    indices of the blocks with global attention; all others use windows
 * @param windowSize      window side in tokens for the windowed blocks
 */
public record VitConfig(int imgSize, int pretrainImgSize, int patchSize, int embedDim, int depth, int numHeads,
        double mlpRatio, int[] globalBlocks, int windowSize) {

    public VitConfig {
        globalBlocks = globalBlocks.clone();
        if (imgSize % patchSize != 0) {
            throw new IllegalArgumentException("img_size " + imgSize + " is not a multiple of patch " + patchSize);
        }
        if ((imgSize / patchSize) % windowSize != 0) {
            throw new IllegalArgumentException("grid " + imgSize / patchSize + " is not a multiple of window "
                    + windowSize);
        }
        if (embedDim % numHeads != 0 || (embedDim / numHeads) % 4 != 0) {
            throw new IllegalArgumentException("head dim must be an integer multiple of 4");
        }
    }

    /** Tokens per side of the input grid (72 at full size). */
    public int grid() {
        return imgSize / patchSize;
    }

    /** Tokens per side of the pretraining grid the absolute position embedding covers (24 at full size). */
    public int pretrainGrid() {
        return pretrainImgSize / patchSize;
    }

    public int headDim() {
        return embedDim / numHeads;
    }

    /** MLP hidden width: {@code int(embedDim * mlpRatio)} (4736 at full size). */
    public int mlpHidden() {
        return (int) (embedDim * mlpRatio);
    }

    @Override
    public int[] globalBlocks() {
        return globalBlocks.clone();
    }

    /** True if block {@code i} attends globally rather than within windows. */
    public boolean isGlobal(int block) {
        return Arrays.stream(globalBlocks).anyMatch(b -> b == block);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof VitConfig v && imgSize == v.imgSize && pretrainImgSize == v.pretrainImgSize
                && patchSize == v.patchSize && embedDim == v.embedDim && depth == v.depth && numHeads == v.numHeads
                && mlpRatio == v.mlpRatio && Arrays.equals(globalBlocks, v.globalBlocks)
                && windowSize == v.windowSize;
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(new Object[] {imgSize, pretrainImgSize, patchSize, embedDim, depth, numHeads, mlpRatio,
            Arrays.hashCode(globalBlocks), windowSize});
    }

    @Override
    public String toString() {
        return "VitConfig[img=" + imgSize + ", patch=" + patchSize + ", dim=" + embedDim + ", depth=" + depth
                + ", heads=" + numHeads + ", global=" + Arrays.toString(globalBlocks) + ", window=" + windowSize + "]";
    }
}
