package io.sam3stream.device;

import java.util.Arrays;

/**
 * A weight the islands need before they can run.
 *
 * @param name  canonical upstream name, e.g. {@code backbone.vision_backbone.trunk.blocks.0.attn.qkv.weight}
 * @param shape upstream shape
 */
public record RequiredWeight(String name, long[] shape) {

    public RequiredWeight {
        shape = shape.clone();
    }

    @Override
    public long[] shape() {
        return shape.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RequiredWeight w && name.equals(w.name) && Arrays.equals(shape, w.shape);
    }

    @Override
    public int hashCode() {
        return 31 * name.hashCode() + Arrays.hashCode(shape);
    }

    @Override
    public String toString() {
        return name + Arrays.toString(shape);
    }
}
