package io.sam3stream.weights.procedural;

import io.sam3stream.weights.RawTensor;
import java.nio.FloatBuffer;

/**
 * The generator of one tensor's values (golden/sam3-full-procedural, section 1.2): element {@code i} in flat C order
 * is {@code float32(offset + v_i * scale)}, where {@code v_i} is output {@code i} of the SplitMix64 stream seeded with
 * the FNV-1a hash of the tensor's name, mapped to [-1, 1) in steps of 2^-52. Every step is exact or correctly rounded
 * binary64 arithmetic, so the values are bit-identical to those of any other faithful implementation.
 */
record TensorRecipe(String name, long[] shape, ScaleRule rule, long seed, double scale, double offset) {

    TensorRecipe {
        shape = shape.clone();
    }

    /** The recipe the rules assign to a tensor of this name and shape. */
    static TensorRecipe of(String name, long[] shape) {
        ScaleRule rule = ScaleRule.of(name, shape);
        return new TensorRecipe(name, shape, rule, Fnv1a64.hash(name), rule.scale(name, shape), rule.offset());
    }

    @Override
    public long[] shape() {
        return shape.clone();
    }

    /** Number of elements. */
    long elementCount() {
        return RawTensor.elementCount(shape);
    }

    /**
     * Writes the values at flat indices {@code first .. first + count - 1} to {@code target} at the same positions
     * (absolute puts: the buffer's position is not used, so disjoint ranges may be filled concurrently).
     */
    void fill(FloatBuffer target, int first, int count) {
        // Stepping the state by GAMMA reproduces SplitMix64.output(seed, i) without a multiplication per element.
        long state = seed + (first + 1L) * SplitMix64.GAMMA;
        int end = first + count;
        for (int i = first; i < end; i++) {
            target.put(i, value(SplitMix64.mix64(state)));
            state += SplitMix64.GAMMA;
        }
    }

    /** Maps one 64-bit output to the tensor's value: scaled and shifted, then rounded to float32. */
    private float value(long bits) {
        return (float) (offset + uniform(bits) * scale);
    }

    /** The top 53 bits of a 64-bit output as a double uniform on [-1, 1) in steps of 2^-52 (exact). */
    static double uniform(long bits) {
        return ((bits >>> 11) * 0x1.0p-53) * 2.0 - 1.0;
    }
}
