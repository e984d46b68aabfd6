package io.sam3stream.model.prompt;

/**
 * An exemplar box prompt: a box around an example of the concept (positive) or around something that is not an
 * example (negative). Coordinates are normalised to [0, 1] of the model input, which is the whole image stretched
 * to a square, so they are also normalised coordinates of the original image.
 *
 * @param cx       centre x
 * @param cy       centre y
 * @param width    box width
 * @param height   box height
 * @param positive true for a positive exemplar (upstream label 1), false for a negative one (label 0)
 */
public record ExemplarBox(float cx, float cy, float width, float height, boolean positive) {

    public ExemplarBox {
        if (!Float.isFinite(cx) || !Float.isFinite(cy) || !Float.isFinite(width) || !Float.isFinite(height)) {
            throw new IllegalArgumentException("box coordinates must be finite: " + cx + ", " + cy + ", " + width
                    + ", " + height);
        }
    }

    /** Corners (x0, y0, x1, y1) scaled by a map's width and height, as upstream's {@code box_cxcywh_to_xyxy}. */
    float[] cornersOn(int mapWidth, int mapHeight) {
        return new float[] {
            (cx - 0.5f * width) * mapWidth,
            (cy - 0.5f * height) * mapHeight,
            (cx + 0.5f * width) * mapWidth,
            (cy + 0.5f * height) * mapHeight,
        };
    }

    /** Upstream's label index into {@code label_embed}: 1 = positive, 0 = negative. */
    long label() {
        return positive ? 1 : 0;
    }
}
