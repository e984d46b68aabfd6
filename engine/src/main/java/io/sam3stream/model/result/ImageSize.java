package io.sam3stream.model.result;

/**
 * Size of the original image in pixels, before the square resize to the model input; boxes are scaled back to it.
 *
 * @param width  columns, positive
 * @param height rows, positive
 */
public record ImageSize(int width, int height) {

    public ImageSize {
        if (width <= 0 || height <= 0) {
            throw new IllegalArgumentException("image size must be positive, got " + width + "x" + height);
        }
    }
}
