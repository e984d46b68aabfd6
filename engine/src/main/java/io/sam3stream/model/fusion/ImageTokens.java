package io.sam3stream.model.fusion;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.types.Shape;

/**
 * One feature level of an image as a token sequence, batch-first: the layout in which the geometry encoder, the
 * fusion encoder and the decoder attend to it. Token {@code y * width + x} is pixel (y, x) of the map, as upstream
 * flattens it ({@code Sam3Image._get_img_feats}).
 *
 * @param tokens (N, H·W, C) features
 * @param pos    (N, H·W, C) their sine position encoding
 * @param height map height H
 * @param width  map width W
 */
public record ImageTokens(NDArray tokens, NDArray pos, int height, int width) implements AutoCloseable {

    /**
     * Flattens a feature map and its position encoding.
     *
     * @param features (N, C, H, W), not modified
     * @param pos      (N, C, H, W), not modified
     * @throws IllegalArgumentException if the two maps differ in shape or are not 4-D
     */
    public static ImageTokens flatten(NDArray features, NDArray pos) {
        Shape shape = features.getShape();
        if (shape.dimension() != 4 || !shape.equals(pos.getShape())) {
            throw new IllegalArgumentException("features " + shape + " and pos " + pos.getShape()
                    + " must be the same (N, C, H, W) shape");
        }
        int height = Math.toIntExact(shape.get(2));
        int width = Math.toIntExact(shape.get(3));
        return new ImageTokens(toTokens(features), toTokens(pos), height, width);
    }

    /** (N, C, H, W) → (N, H·W, C). */
    private static NDArray toTokens(NDArray map) {
        Shape s = map.getShape();
        try (NDArray flat = map.reshape(s.get(0), s.get(1), s.get(2) * s.get(3))) {
            return flat.transpose(0, 2, 1);
        }
    }

    /** Number of images N. */
    public long batchSize() {
        return tokens.getShape().get(0);
    }

    /** Token width C. */
    public long channels() {
        return tokens.getShape().get(2);
    }

    @Override
    public void close() {
        tokens.close();
        pos.close();
    }
}
