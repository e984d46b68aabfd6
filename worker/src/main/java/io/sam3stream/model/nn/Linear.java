package io.sam3stream.model.nn;

import ai.djl.ndarray.NDArray;

/** {@code nn.Linear}: y = x·Wᵀ + b over the last axis, W stored (out, in) as in PyTorch. Bias may be absent. */
public record Linear(NDArray weight, NDArray bias) {

    /** Loads {@code name.weight} and, when present, {@code name.bias}. */
    public static Linear load(Params p, String name) {
        Params sub = p.sub(name);
        return new Linear(sub.get("weight"), sub.has("bias") ? sub.get("bias") : null);
    }

    public NDArray forward(NDArray x) {
        return ai.djl.nn.core.Linear.linear(x, weight, bias).singletonOrThrow();
    }

    /** Output features. */
    public long outFeatures() {
        return weight.getShape().get(0);
    }
}
