package io.sam3stream.model.nn;

import ai.djl.ndarray.NDArray;
import ai.djl.nn.Activation;

/**
 * {@code nn.Linear}: y = x·Wᵀ + b over the last axis, W stored (out, in) as in PyTorch. Bias may be absent. The
 * weight is held in {@code precision} (bias always float32); the product is computed in float32, by oneDNN for
 * {@link #forwardReadOnly} and {@link #forwardGelu} when {@link ComputeOptions#oneDnnLinear} is on (layers with a
 * bias), by libtorch's default BLAS otherwise.
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

    /** x·Wᵀ + b by libtorch's default BLAS; the result may be updated in place. */
    public NDArray forward(NDArray x) {
        return apply(x, false, false);
    }

    /**
     * x·Wᵀ + b by oneDNN when {@link ComputeOptions#oneDnnLinear} is on. The result must only be read: it comes
     * back from a TorchScript call as an inference tensor, which libtorch refuses to update in place.
     */
    public NDArray forwardReadOnly(NDArray x) {
        return apply(x, false, true);
    }

    /**
     * GELU(x·Wᵀ + b) with the exact, erf-based GELU of {@code nn.GELU()}: fused into oneDNN's product when
     * {@link ComputeOptions#oneDnnLinear} is on, else a second operator over the output. The result must only be
     * read (see {@link #forwardReadOnly}).
     */
    public NDArray forwardGelu(NDArray x) {
        return apply(x, true, true);
    }

    private NDArray apply(NDArray x, boolean gelu, boolean readOnly) {
        NDArray wide = precision.widen(weight);
        try {
            if (readOnly && bias != null && ComputeOptions.current().oneDnnLinear()) {
                return gelu ? FusedOps.linearGelu(x, wide, bias) : FusedOps.linear(x, wide, bias);
            }
            NDArray out = ai.djl.nn.core.Linear.linear(x, wide, bias).singletonOrThrow();
            if (!gelu) {
                return out;
            }
            NDArray activated = Activation.gelu(out);
            out.close();
            return activated;
        } finally {
            if (wide != weight) {
                wide.close();
            }
        }
    }

    /** Output features. */
    public long outFeatures() {
        return weight.getShape().get(0);
    }
}
