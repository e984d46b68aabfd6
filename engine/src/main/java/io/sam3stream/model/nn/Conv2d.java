package io.sam3stream.model.nn;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;

/**
 * {@code nn.Conv2d} with stride 1 and "same" zero padding for an odd square kernel: weight (out, in, k, k), bias
 * (out). NCHW, float32 in and out; a bfloat16 layer narrows x for the product and widens the result. The neck's
 * convolutions and the segmentation head's are this layer.
 *
 * <p>A float32 layer calls oneDNN's convolution itself ({@link FusedOps#conv2d}). Left to choose, libtorch sends a
 * map of at most 20480 values, or a 1×1 kernel on one thread, to its im2col path, and asks NNPACK first; on a CPU
 * NNPACK does not recognise (a Zen 5, for one) that question logs a warning on every call, several lines per
 * request of the tiny model. At the tiny model's sizes oneDNN is a little faster (docs/PERFORMANCE.md).
 *
 * @param weight (out, in, k, k), bfloat16 when {@code bf16}
 * @param bias   (out), bfloat16 when {@code bf16}
 * @param bf16   the layer holds bfloat16 parameters and multiplies in bfloat16
 */
public record Conv2d(NDArray weight, NDArray bias, boolean bf16) {

    /**
     * Loads {@code name.weight} and {@code name.bias}, held once in bfloat16 where the tree's precision convolves in
     * bfloat16 ({@link Precision#bf16Convolutions}).
     */
    public static Conv2d load(Params p, String name) {
        Params sub = p.sub(name);
        Precision precision = p.precision();
        if (precision.bf16Convolutions()) {
            return new Conv2d(precision.store(sub.get("weight")), precision.store(sub.get("bias")), true);
        }
        return new Conv2d(sub.get("weight"), sub.get("bias"), false);
    }

    /** Adds {@code name.weight} and {@code name.bias} to a graph's parameters. */
    public void addTo(GraphWeights.Builder graph, String name) {
        graph.put(name + ".weight", weight);
        graph.put(name + ".bias", bias);
    }

    /** The convolution of x, float32; in bfloat16 the result must only be read (see {@link FusedOps#conv2dBf16}). */
    public NDArray forward(NDArray x) {
        return convolve(x, bias, true);
    }

    /**
     * {@link #forward} in the layer's own format: a bfloat16 layer returns its bfloat16 result unwidened (the values
     * {@link #forward} widens, in half the memory; {@code DataType.UNKNOWN} to DJL), for a consumer that only adds
     * it to float32 arrays; a float32 layer returns what {@link #forward} does.
     */
    public NDArray forwardInLayerFormat(NDArray x) {
        return convolve(x, bias, false);
    }

    /**
     * The convolution of x without the bias: the part of {@link #forward} that is linear in x, for a caller that
     * adds the bias with another term.
     */
    public NDArray forwardWithoutBias(NDArray x) {
        return convolve(x, null, true);
    }

    private NDArray convolve(NDArray x, NDArray bias, boolean widen) {
        long pad = weight.getShape().get(2) / 2;
        if (bf16) {
            return FusedOps.conv2dBf16(x, weight, bias, (int) pad, widen);
        }
        return FusedOps.conv2d(x, weight, bias, (int) pad);
    }

    /**
     * The kernel (in, out, 4, 4) of the stride-2, padding-1 transposed convolution that equals this 3×3
     * convolution (without its bias) applied to a map upsampled 2× by nearest neighbour, in this layer's precision.
     *
     * <p>Output row 2i of the upsampled convolution reads upsampled rows 2i−1, 2i, 2i+1, which are input rows i−1,
     * i, i: it weighs row i−1 by kernel row 0 and row i by rows 1 + 2. Output row 2i+1 reads input rows i, i, i+1:
     * row i by kernel rows 0 + 1 and row i+1 by row 2. A transposed convolution with stride 2 and padding 1 spreads
     * input row i over output rows 2i−1 .. 2i+2 with its kernel rows 0..3, so those rows are kernel rows
     * [2, 1+2, 0+1, 0]; columns combine the same way. The sums are formed in float32 (one rounding each; in
     * bfloat16 a second one, to the layer's format). The transposed form multiplies each input pixel once instead
     * of four times, and never writes the upsampled map.
     */
    public NDArray upsampledKernel() {
        if (weight.getShape().get(2) != 3 || weight.getShape().get(3) != 3) {
            throw new IllegalStateException("only a 3x3 kernel has a 2x-upsampled form, not " + weight.getShape());
        }
        float[] rows = {0, 0, 1, 0, 1, 1, 1, 1, 0, 1, 0, 0};
        try (NDArray kernel = bf16 ? FusedOps.toFloat32(weight) : weight.toType(DataType.FLOAT32, true);
                NDArray inputFirst = kernel.transpose(1, 0, 2, 3);
                NDArray combine = weight.getManager().create(rows, new Shape(4, 3));
                NDArray combineColumns = combine.transpose();
                NDArray combinedRows = combine.matMul(inputFirst)) {
            // the products are fresh arrays, so the kernel comes out contiguous in the (in, out, 4, 4) order
            NDArray combined = combinedRows.matMul(combineColumns);
            if (!bf16) {
                return combined;
            }
            try (combined) {
                return FusedOps.toBfloat16(combined);
            }
        }
    }
}
