package io.sam3stream.model.nn;

import ai.djl.ndarray.NDArray;
import ai.djl.nn.Activation;

/**
 * {@code nn.Linear}: y = x·Wᵀ + b over the last axis, W stored (out, in) as in PyTorch. Bias may be absent. Input
 * and output are float32 whatever the {@link Precision}: a float32 layer multiplies by oneDNN for
 * {@link #forwardReadOnly} and {@link #forwardGelu} when {@link ComputeOptions#oneDnnLinear} is on (layers with a
 * bias), by libtorch's default BLAS otherwise; a bfloat16 layer holds W and b in bfloat16 and narrows x for the
 * product, which accumulates in float32 and is rounded to bfloat16 before it is widened back. A bfloat16 layer
 * may hold its matrix in oneDNN's blocked layout instead ({@link #withBlockedMatrix}).
 *
 * @param blocked {@code weight} is an opaque oneDNN tensor in the blocked layout of its inner product (see
 *                {@link FusedOps#blockBf16LinearWeight}); only for a bfloat16 layer
 */
public record Linear(NDArray weight, NDArray bias, Precision precision, boolean blocked) {

    public Linear {
        if (blocked && !precision.bf16Linear()) {
            throw new IllegalArgumentException("only a bfloat16 layer holds a blocked matrix");
        }
    }

    /** A float32 layer. */
    public Linear(NDArray weight, NDArray bias) {
        this(weight, bias, Precision.FP32);
    }

    /** A layer of {@code precision} with a plain (out, in) matrix. */
    public Linear(NDArray weight, NDArray bias, Precision precision) {
        this(weight, bias, precision, false);
    }

    /** Loads {@code name.weight} and, when present, {@code name.bias}, held in the tree's precision. */
    public static Linear load(Params p, String name) {
        Params sub = p.sub(name);
        return of(sub.get("weight"), sub.has("bias") ? sub.get("bias") : null, p.precision());
    }

    /** A layer of {@code precision} from float32 arrays, which it takes over (closing them if it narrows them). */
    public static Linear of(NDArray weight, NDArray bias, Precision precision) {
        return new Linear(precision.store(weight), bias == null ? null : precision.store(bias), precision);
    }

    /**
     * This layer with its matrix reordered once into oneDNN's blocked layout where its precision
     * {@link Precision#blocksLinearMatrices blocks matrices}, else this layer. A blocked product neither reorders the
     * matrix on every call nor leaves the GELU to a second pass over the output; the plain matrix is closed, so the
     * weights stay held once. Meant for the large layers of the ViT, whose products take most of a forward.
     */
    public Linear withBlockedMatrix() {
        return precision.blocksLinearMatrices() ? reorderedIntoBlocks() : this;
    }

    /**
     * This layer with its matrix blocked as {@link #withBlockedMatrix} does, where its precision
     * {@link Precision#blocksFewRowMatrices blocks few-row matrices}, else this layer. Meant for layers that multiply
     * a few rows at a time (the text encoder's: a prompt's tokens), whose products read the matrix once, so that a
     * reorder on every call would multiply their memory traffic.
     */
    public Linear withBlockedMatrixForFewRows() {
        return precision.blocksFewRowMatrices() ? reorderedIntoBlocks() : this;
    }

    private Linear reorderedIntoBlocks() {
        if (blocked) {
            return this;
        }
        NDArray reordered = FusedOps.blockBf16LinearWeight(weight);
        weight.close();
        return new Linear(reordered, bias, precision, true);
    }

    /**
     * Adds {@code name.weight} and {@code name.bias} to a graph's parameters; the graph multiplies in the format
     * the weight is held in, as {@link #forward} does, a blocked matrix through oneDNN's inner product. Most graphs
     * also attend in that format, so only a module whose graph takes the attention format separately (the fusion and
     * text encoders') may add {@link Precision#BF16_LINEAR} layers; the others build graphs for
     * {@link Precision#singleFormat} precisions only.
     */
    public void addTo(GraphWeights.Builder graph, String name) {
        graph.put(name + ".weight", weight);
        if (bias != null) {
            graph.put(name + ".bias", bias);
        }
    }

    /** x·Wᵀ + b; the result may be updated in place. */
    public NDArray forward(NDArray x) {
        if (precision.bf16Linear()) {
            // the product comes back from TorchScript as an inference tensor: a copy is what the caller may update
            try (NDArray readOnly = FusedOps.linearBf16(x, weight, bias, false)) {
                return readOnly.duplicate();
            }
        }
        return apply(x, false, false);
    }

    /**
     * x·Wᵀ + b by oneDNN when {@link ComputeOptions#oneDnnLinear} is on, in bfloat16 for a bfloat16 layer. The
     * result must only be read: it comes back from a TorchScript call as an inference tensor, which libtorch refuses
     * to update in place.
     */
    public NDArray forwardReadOnly(NDArray x) {
        return apply(x, false, true);
    }

    /**
     * GELU(x·Wᵀ + b) with the exact, erf-based GELU of {@code nn.GELU()}: fused into oneDNN's product when
     * {@link ComputeOptions#oneDnnLinear} is on, else a second operator over the output (over the bfloat16 product,
     * as autocast runs it, for a bfloat16 layer). The result must only be read (see {@link #forwardReadOnly}).
     */
    public NDArray forwardGelu(NDArray x) {
        return apply(x, true, true);
    }

    private NDArray apply(NDArray x, boolean gelu, boolean readOnly) {
        if (precision.bf16Linear()) {
            return FusedOps.linearBf16(x, weight, bias, gelu);
        }
        if (readOnly && bias != null && ComputeOptions.current().oneDnnLinear()) {
            return gelu ? FusedOps.linearGelu(x, weight, bias) : FusedOps.linear(x, weight, bias);
        }
        NDArray out = ai.djl.nn.core.Linear.linear(x, weight, bias).singletonOrThrow();
        if (!gelu) {
            return out;
        }
        NDArray activated = Activation.gelu(out);
        out.close();
        return activated;
    }
}
