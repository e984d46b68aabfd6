package io.sam3stream.imaging;

/**
 * One detected instance to draw on an overlay.
 *
 * @param mask    its binary mask at the image size, or null to draw the box only ({@code mask_format: none})
 * @param boxXyxy its box in image pixels: x0, y0, x1, y1
 * @param score   its confidence, printed with two decimals
 * @param label   the prompt that found it
 */
public record OverlayInstance(BinaryMask mask, float[] boxXyxy, float score, String label) {

    public OverlayInstance {
        if (boxXyxy.length != 4) {
            throw new IllegalArgumentException("a box has 4 coordinates, got " + boxXyxy.length);
        }
        boxXyxy = boxXyxy.clone();
    }

    @Override
    public float[] boxXyxy() {
        return boxXyxy.clone();
    }
}
