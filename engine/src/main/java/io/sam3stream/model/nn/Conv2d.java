package io.sam3stream.model.nn;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.types.Shape;

/**
 * {@code nn.Conv2d} with stride 1 and "same" zero padding for an odd square kernel: weight (out, in, k, k), bias
 * (out). NCHW, float32 in and out; a bfloat16 layer narrows x for the product and widens the result. The neck's
 * convolutions and the segmentation head's are this layer.
 *
 * @param weight (out, in, k, k), bfloat16 when {@code bf16}
 * @param bias   (out), bfloat16 when {@code bf16}
 * @param bf16   the layer holds bfloat16 parameters and multiplies in bfloat16
 */
public record Conv2d(NDArray weight, NDArray bias, boolean bf16) {

    /**
     * Loads {@code name.weight} and {@code name.bias}, held once in bfloat16 where the tree's precision attends in
     * bfloat16 ({@link Precision#bf16Attention}, chosen only with AMX, whose tiles run bfloat16 convolutions too).
     */
    public static Conv2d load(Params p, String name) {
        Params sub = p.sub(name);
        Precision precision = p.precision();
        if (precision.bf16Attention()) {
            return new Conv2d(precision.store(sub.get("weight")), precision.store(sub.get("bias")), true);
        }
        return new Conv2d(sub.get("weight"), sub.get("bias"), false);
    }

    /** Adds {@code name.weight} and {@code name.bias} to a graph's parameters. */
    public void addTo(GraphWeights.Builder graph, String name) {
        graph.put(name + ".weight", weight);
        graph.put(name + ".bias", bias);
    }

    /** The convolution of x; in bfloat16 the result must only be read (see {@link FusedOps#conv2dBf16}). */
    public NDArray forward(NDArray x) {
        long pad = weight.getShape().get(2) / 2;
        if (bf16) {
            return FusedOps.conv2dBf16(x, weight, bias, (int) pad);
        }
        return ai.djl.nn.convolutional.Conv2d.conv2d(x, weight, bias, new Shape(1, 1), new Shape(pad, pad),
                new Shape(1, 1), 1).singletonOrThrow();
    }
}
