package io.sam3stream.model.result;

import java.nio.FloatBuffer;
import java.util.Arrays;

/**
 * One instance's mask logits at the segmentation head's native resolution (4G × 4G, 288 × 288 at full size),
 * row-major. A binary mask at the original resolution is {@code bilinear(logits → H × W, align_corners=false) > 0}
 * (docs/MODEL.md §11.3). Immutable.
 */
public final class MaskLogits {

    private final int height;
    private final int width;
    private final float[] values;

    /** Copies {@code values}, which must hold {@code height × width} logits in row-major order. */
    public MaskLogits(int height, int width, float[] values) {
        if (height <= 0 || width <= 0 || values.length != (long) height * width) {
            throw new IllegalArgumentException("expected " + height + "x" + width + " logits, got " + values.length);
        }
        this.height = height;
        this.width = width;
        this.values = values.clone();
    }

    public int height() {
        return height;
    }

    public int width() {
        return width;
    }

    /** The logit at row {@code y}, column {@code x}. */
    public float at(int y, int x) {
        if (y < 0 || y >= height || x < 0 || x >= width) {
            throw new IndexOutOfBoundsException("(" + y + ", " + x + ") outside " + height + "x" + width);
        }
        return values[y * width + x];
    }

    /** A read-only row-major view of all logits, without copying. */
    public FloatBuffer values() {
        return FloatBuffer.wrap(values).asReadOnlyBuffer();
    }

    /** A row-major copy of all logits. */
    public float[] toArray() {
        return values.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MaskLogits m && height == m.height && width == m.width && Arrays.equals(values, m.values);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * height + width) + Arrays.hashCode(values);
    }

    @Override
    public String toString() {
        return "MaskLogits[" + height + "x" + width + "]";
    }
}
