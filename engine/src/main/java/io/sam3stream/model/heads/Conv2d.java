package io.sam3stream.model.heads;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.types.Shape;
import io.sam3stream.model.nn.GraphWeights;
import io.sam3stream.model.nn.Params;

/**
 * {@code nn.Conv2d} with stride 1 and "same" zero padding for an odd square kernel: weight (out, in, k, k), bias
 * (out). NCHW.
 */
record Conv2d(NDArray weight, NDArray bias) {

    /** Loads {@code name.weight} and {@code name.bias}. */
    static Conv2d load(Params p, String name) {
        Params sub = p.sub(name);
        return new Conv2d(sub.get("weight"), sub.get("bias"));
    }

    /** Adds {@code name.weight} and {@code name.bias} to a graph's parameters. */
    void addTo(GraphWeights.Builder graph, String name) {
        graph.put(name + ".weight", weight);
        graph.put(name + ".bias", bias);
    }

    NDArray forward(NDArray x) {
        long pad = weight.getShape().get(2) / 2;
        return ai.djl.nn.convolutional.Conv2d.conv2d(x, weight, bias, new Shape(1, 1), new Shape(pad, pad),
                new Shape(1, 1), 1).singletonOrThrow();
    }
}
