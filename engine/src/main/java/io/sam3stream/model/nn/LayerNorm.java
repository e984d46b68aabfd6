package io.sam3stream.model.nn;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.types.Shape;

/** {@code nn.LayerNorm} over the last axis with affine weight and bias; eps 1e-5 everywhere in SAM3. */
public record LayerNorm(NDArray weight, NDArray bias, float eps) {

    public static final float DEFAULT_EPS = 1e-5f;

    /** Loads {@code name.weight} and {@code name.bias} with eps 1e-5. */
    public static LayerNorm load(Params p, String name) {
        Params sub = p.sub(name);
        return new LayerNorm(sub.get("weight"), sub.get("bias"), DEFAULT_EPS);
    }

    /** Adds {@code name.weight} and {@code name.bias} to a graph's parameters. */
    public void addTo(GraphWeights.Builder graph, String name) {
        graph.put(name + ".weight", weight);
        graph.put(name + ".bias", bias);
    }

    public NDArray forward(NDArray x) {
        return ai.djl.nn.norm.LayerNorm.layerNorm(x, new Shape(weight.getShape().get(0)), weight, bias, eps)
                .singletonOrThrow();
    }
}
