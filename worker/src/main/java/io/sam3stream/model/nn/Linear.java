package io.sam3stream.model.nn;

import ai.djl.ndarray.NDArray;

/**
 * {@code nn.Linear}: y = x·Wᵀ + b over the last axis, W stored (out, in) as in PyTorch. Bias may be absent. The
 * weight is held in {@code precision} (bias always float32); the product is computed in float32.
 */
public record Linear(NDArray weight, NDArray bias, WeightPrecision precision) {

    /** A float32 layer. */
    public Linear(NDArray weight, NDArray bias) {
        this(weight, bias, WeightPrecision.FP32);
    }

    /** Loads {@code name.weight} (held in the tree's precision) and, when present, {@code name.bias}. */
    public static Linear load(Params p, String name) {
        Params sub = p.sub(name);
        return new Linear(p.precision().store(sub.get("weight")), sub.has("bias") ? sub.get("bias") : null,
                p.precision());
    }

    public NDArray forward(NDArray x) {
        if (precision == WeightPrecision.FP32) {
            return ai.djl.nn.core.Linear.linear(x, weight, bias).singletonOrThrow();
        }
        try (NDArray wide = precision.widen(weight)) {
            return ai.djl.nn.core.Linear.linear(x, wide, bias).singletonOrThrow();
        }
    }

    /** Output features. */
    public long outFeatures() {
        return weight.getShape().get(0);
    }
}
