package io.sam3stream.parity;

import io.sam3stream.weights.RawTensor;
import java.util.Arrays;

/**
 * A large stage as the sampled golden layout keeps it: the full tensor's shape and statistics, and its values at a
 * fixed set of flat C-order indices, in the order the indices are listed.
 *
 * @param shape      shape of the whole tensor
 * @param indices    flat C-order indices of the sampled elements
 * @param values     the elements at those indices
 * @param statistics mean, std, min and max of the whole tensor
 */
public record SampledStage(long[] shape, long[] indices, float[] values, TensorStatistics statistics) {

    public SampledStage {
        if (indices.length != values.length) {
            throw new IllegalArgumentException(indices.length + " indices but " + values.length + " values");
        }
        shape = shape.clone();
        indices = indices.clone();
        values = values.clone();
    }

    /**
     * Samples a whole tensor: its statistics over every element and its values at {@code indices}. A tensor too
     * small for the indices (its shape differs from the reference's, e.g. fewer kept masks) keeps its shape and
     * statistics but no samples; comparing it then fails on the shape.
     *
     * @throws IllegalArgumentException if {@code all} does not hold the shape's element count
     */
    public static SampledStage sample(long[] shape, float[] all, long[] indices) {
        long count = RawTensor.elementCount(shape);
        if (all.length != count) {
            throw new IllegalArgumentException("shape " + Arrays.toString(shape) + " needs " + count
                    + " values, got " + all.length);
        }
        TensorStatistics statistics = TensorStatistics.of(all);
        if (Arrays.stream(indices).anyMatch(i -> i < 0 || i >= count)) {
            return new SampledStage(shape, new long[0], new float[0], statistics);
        }
        float[] picked = new float[indices.length];
        for (int i = 0; i < indices.length; i++) {
            picked[i] = all[(int) indices[i]];
        }
        return new SampledStage(shape, indices, picked, statistics);
    }

    @Override
    public long[] shape() {
        return shape.clone();
    }

    @Override
    public long[] indices() {
        return indices.clone();
    }

    @Override
    public float[] values() {
        return values.clone();
    }
}
