package io.sam3stream.model.config;

/**
 * Every hyper-parameter of the SAM3 image model. {@link #fullSize()} is the released model;
 * {@link Sam3ConfigReader} reads any other size from a {@code config.json} laid out like the golden one.
 *
 * @param resolution       square model input side in pixels (1008)
 * @param vit              the image trunk
 * @param dModel           width of the neck, prompts, fusion encoder, decoder and heads (256)
 * @param text             the text transformer
 * @param geometry         the geometry (prompt) encoder layers
 * @param encoder          the fusion encoder
 * @param decoder          the decoder layers
 * @param numQueries       decoder object queries (200)
 * @param scoringMlpHidden hidden width of the dot-product scoring's prompt MLP (2048)
 * @param roiSize          RoI-align output side for box prompts (7)
 * @param maskHeadHeads    heads of the segmentation head's prompt cross-attention (8)
 */
public record Sam3Config(int resolution, VitConfig vit, int dModel, TextConfig text, TransformerConfig geometry,
        TransformerConfig encoder, TransformerConfig decoder, int numQueries, int scoringMlpHidden, int roiSize,
        int maskHeadHeads) {

    public Sam3Config {
        if (resolution != vit.imgSize()) {
            throw new IllegalArgumentException("resolution " + resolution + " differs from ViT img_size "
                    + vit.imgSize());
        }
        if (dModel % 8 != 0) {
            throw new IllegalArgumentException("d_model must be a multiple of 8 (GroupNorm(8))");
        }
    }

    /** The released SAM3 image model (840.5 M parameters). */
    public static Sam3Config fullSize() {
        return new Sam3Config(1008,
                new VitConfig(1008, 336, 14, 1024, 32, 16, 4.625, new int[] {7, 15, 23, 31}, 24),
                256,
                new TextConfig(1024, 16, 24, 4096, 32, 49408),
                new TransformerConfig(3, 8, 2048),
                new TransformerConfig(6, 8, 2048),
                new TransformerConfig(6, 8, 2048),
                200, 2048, 7, 8);
    }

    /**
     * The demo model's size: every module of the released model at small widths (a 168² input, a 4-block ViT 64
     * wide, 32-wide prompt side, 10 queries), 2.3 M parameters. With generated weights its answers mean nothing,
     * but every stage of the real pipeline runs, in milliseconds.
     */
    public static Sam3Config demo() {
        return new Sam3Config(168,
                new VitConfig(168, 56, 14, 64, 4, 4, 4.625, new int[] {1, 3}, 4),
                32,
                new TextConfig(48, 4, 2, 192, 32, 49408),
                new TransformerConfig(2, 4, 80),
                new TransformerConfig(2, 4, 80),
                new TransformerConfig(2, 4, 80),
                10, 72, 7, 4);
    }

    /** Side of the 1× feature map the prompts, encoder and decoder work on (72 at full size). */
    public int grid() {
        return vit.grid();
    }
}
