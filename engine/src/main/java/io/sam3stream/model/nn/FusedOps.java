package io.sam3stream.model.nn;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import java.util.List;

/**
 * libtorch operators that DJL does not bind, reached through a small TorchScript module compiled at first use
 * (source: {@code FusedOps.torchscript} beside this class, compiled by {@link ScriptModule}):
 * <ul>
 *   <li>{@code torch.scaled_dot_product_attention}: on CPU a blocked kernel with an online softmax, so the (Lq, Lk)
 *       logits of a 5184-token attention never reach memory;</li>
 *   <li>the ViT's RoPE as one complex multiply over q and k together, as upstream's {@code apply_rotary_enc}
 *       computes it, straight from the packed {@code qkv} projection;</li>
 *   <li>oneDNN's linear layer ({@code mkldnn::_linear_pointwise}), optionally with the exact (erf) GELU applied
 *       in the matrix product's epilogue instead of in a second pass over the output;</li>
 *   <li>the bfloat16 forms of linear layers, convolutions, the ViT's MLP and attention, and attention itself, each
 *       one call that takes and returns float32 activations and narrows, multiplies and widens inside
 *       ({@link Precision});</li>
 *   <li>bfloat16 matrices reordered once into the blocked layout of oneDNN's inner product, which the bfloat16
 *       linear forms then multiply from (where oneDNN has native bfloat16 instructions);</li>
 *   <li>conversions to and from bfloat16, which DJL's PyTorch engine does not map (such arrays report
 *       {@code DataType.UNKNOWN} and must only be handed back to these operators).</li>
 * </ul>
 * Results are allocated in the manager of the first array argument. Safe for concurrent use.
 */
public final class FusedOps {

    private FusedOps() {}

    /** The compiled module, built on first use and kept for the life of the process. */
    private static final class Module {
        static final ScriptModule INSTANCE = ScriptModule.compile("FusedOps");
    }

    /**
     * softmax(q·kᵀ/√D + bias)·v.
     *
     * @param q    (B, H, Lq, D)
     * @param k    (B, H, Lk, D)
     * @param v    (B, H, Lk, Dv)
     * @param bias additive bias broadcastable to (B, H, Lq, Lk), or null
     * @return (B, H, Lq, Dv)
     */
    public static NDArray attention(NDArray q, NDArray k, NDArray v, NDArray bias) {
        return bias == null ? call("attention", q, k, v) : call("biased_attention", q, k, v, bias);
    }

    /**
     * The complex form of a RoPE table, shaped to broadcast over the packed q and k of {@link #rotateQk}.
     *
     * @param cos (tokens, D/2) cosines of the angles
     * @param sin (tokens, D/2) sines of the angles
     * @return (tokens, 1, 1, D/2) complex64, cos + i·sin
     */
    public static NDArray rotaryTable(NDArray cos, NDArray sin) {
        return call("rotary_table", cos, sin);
    }

    /**
     * Rotates the q and k of a packed projection by a RoPE table, channels (2j, 2j+1) of a head read as one complex
     * number.
     *
     * @param qkv   (N, L, 3C) contiguous, channels [q | k | v], each C = heads · D
     * @param table (L, 1, 1, D/2) from {@link #rotaryTable}
     * @return (N, L, 2, heads, D): rotated q at index 0 of axis 2, rotated k at index 1
     */
    public static NDArray rotateQk(NDArray qkv, NDArray table, int heads) {
        return run("rotate_qk", qkv.getManager(), new ScriptCall().tensor(qkv).tensor(table).integer(heads));
    }

    /**
     * x·Wᵀ + b by oneDNN.
     *
     * @param x      (..., in) float32
     * @param weight (out, in) float32
     * @param bias   (out) float32
     */
    public static NDArray linear(NDArray x, NDArray weight, NDArray bias) {
        return call("linear", x, weight, bias);
    }

    /** GELU(x·Wᵀ + b) with the exact, erf-based GELU, by oneDNN in one pass; arguments as {@link #linear}. */
    public static NDArray linearGelu(NDArray x, NDArray weight, NDArray bias) {
        return call("linear_gelu", x, weight, bias);
    }

    /**
     * x·Wᵀ + b, optionally followed by the exact GELU, with bfloat16 operands: x is narrowed, the product accumulates
     * in float32 and is rounded to bfloat16, then widened back. A plain matrix goes through {@code torch.linear} and
     * the GELU runs on the rounded product, as under autocast; a blocked one ({@link #blockBf16LinearWeight}, told
     * apart by its layout) through oneDNN's inner product, which applies the GELU to the float32 accumulator before
     * the one rounding.
     *
     * @param x      (..., in) float32
     * @param weight (out, in) bfloat16, plain or blocked
     * @param bias   (out) bfloat16, or null
     * @return (..., out) float32, to be read only
     */
    public static NDArray linearBf16(NDArray x, NDArray weight, NDArray bias, boolean gelu) {
        return run("linear_bf16", x.getManager(), new ScriptCall().tensor(x).tensor(weight)
                .tensors(bias == null ? List.of() : List.of(bias)).flag(gelu));
    }

    /**
     * fc2(GELU(fc1(x))) in bfloat16 with the hidden activation kept in bfloat16 between the two products; x and the
     * result float32, the weights and biases bfloat16, each matrix plain or blocked (as {@link #linearBf16}).
     */
    public static NDArray mlpBf16(NDArray x, NDArray fc1Weight, NDArray fc1Bias, NDArray fc2Weight,
            NDArray fc2Bias) {
        return call("mlp_bf16", x, fc1Weight, fc1Bias, fc2Weight, fc2Bias);
    }

    /**
     * True when libtorch's oneDNN multiplies bfloat16 with native instructions on this CPU (AVX-512 with its
     * bfloat16 extensions or AMX; oneDNN's own ISA cap, {@code ONEDNN_MAX_CPU_ISA}, is respected), so that
     * {@link #blockBf16LinearWeight} is available. Asked once per process.
     */
    public static boolean oneDnnMultipliesBf16() {
        return OneDnnBf16.SUPPORTED;
    }

    private static final class OneDnnBf16 {
        static final boolean SUPPORTED;

        static {
            try (NDManager manager = NDManager.newBaseManager();
                    NDArray flag = run("onednn_multiplies_bf16", manager, new ScriptCall())) {
                SUPPORTED = flag.toBooleanArray()[0];
            }
        }
    }

    /**
     * A bfloat16 (out, in) matrix reordered into the blocked layout oneDNN's inner product reads, for
     * the bfloat16 products of {@link #linearBf16}, {@link #mlpBf16} and {@link #vitAttentionBf16}; only where {@link #oneDnnMultipliesBf16}. The
     * result is an opaque oneDNN tensor: it must only be handed back to these operators.
     */
    public static NDArray blockBf16LinearWeight(NDArray weight) {
        return call("block_bf16_linear_weight", weight);
    }

    /**
     * A stride-1 float32 convolution with "same" zero padding, computed by oneDNN whatever the map's size (see
     * {@link Conv2d} for why the engine does not let libtorch choose).
     *
     * @param x       (N, C, H, W) float32, any memory format
     * @param weight  (out, C, k, k) float32
     * @param bias    (out) float32, or null for none
     * @param padding k / 2
     * @return (N, out, H, W) float32, in x's memory format
     */
    public static NDArray conv2d(NDArray x, NDArray weight, NDArray bias, int padding) {
        if (bias == null) {
            return run("unbiased_conv2d", x.getManager(), new ScriptCall().tensor(x).tensor(weight)
                    .integer(padding));
        }
        return run("conv2d", x.getManager(), new ScriptCall().tensor(x).tensor(weight).tensor(bias)
                .integer(padding));
    }

    /**
     * A stride-1 convolution with "same" zero padding in bfloat16: x is narrowed, the product accumulates in float32
     * and is rounded to bfloat16, then widened back unless the caller keeps the bfloat16 result.
     *
     * @param x       (N, C, H, W) float32
     * @param weight  (out, C, k, k) bfloat16
     * @param bias    (out) bfloat16, or null for none
     * @param padding k / 2
     * @param widen   return float32; false returns the bfloat16 result itself (the same values in half the memory,
     *                {@code DataType.UNKNOWN} to DJL), for a consumer that adds it to float32 arrays
     * @return (N, out, H, W), to be read only
     */
    public static NDArray conv2dBf16(NDArray x, NDArray weight, NDArray bias, int padding, boolean widen) {
        if (bias == null) {
            return run("unbiased_conv2d_bf16", x.getManager(), new ScriptCall().tensor(x).tensor(weight)
                    .integer(padding).flag(widen));
        }
        return run("conv2d_bf16", x.getManager(), new ScriptCall().tensor(x).tensor(weight).tensor(bias)
                .integer(padding).flag(widen));
    }

    /**
     * {@link #attention} with bfloat16 operands (the kernel keeps its softmax statistics and accumulators in
     * float32); float32 in and out, the bias narrowed too.
     */
    public static NDArray attentionBf16(NDArray q, NDArray k, NDArray v, NDArray bias) {
        return bias == null ? call("attention_bf16", q, k, v) : call("biased_attention_bf16", q, k, v, bias);
    }

    /**
     * A whole ViT self-attention in one call, its products in bfloat16: the packed qkv projection, RoPE on q and k
     * in float32 (complex multiply by {@code table}, as {@link #rotateQk}), attention in bfloat16 or float32, the
     * output projection.
     *
     * @param x     (N, L, C) float32
     * @param table (L, 1, 1, D/2) complex64 from {@link #rotaryTable}
     * @return (N, L, C) float32, to be read only; each matrix may be plain or blocked (as {@link #linearBf16})
     */
    public static NDArray vitAttentionBf16(NDArray x, NDArray qkvWeight, NDArray qkvBias, NDArray table, int heads,
            NDArray projWeight, NDArray projBias, boolean bf16Attention) {
        return run("vit_attention_bf16", x.getManager(), new ScriptCall().tensor(x).tensor(qkvWeight).tensor(qkvBias)
                .tensor(table).integer(heads).tensor(projWeight).tensor(projBias).flag(bf16Attention));
    }

    /**
     * The first half of {@link #vitAttentionBf16} for {@link NativeBf16Attention#attendPacked}: the packed qkv
     * projection in bfloat16 with q and k rotated by RoPE in float32 and narrowed back into their slots.
     *
     * @param x     (N, L, C) float32
     * @param table (L, 1, 1, D/2) complex64 from {@link #rotaryTable}
     * @return (N, L, 3·C) bfloat16, each token's q, k and v side by side
     */
    public static NDArray vitRotatedQkvBf16(NDArray x, NDArray qkvWeight, NDArray qkvBias, NDArray table,
            int heads) {
        return run("vit_qkv_rotated_bf16", x.getManager(), new ScriptCall().tensor(x).tensor(qkvWeight)
                .tensor(qkvBias).tensor(table).integer(heads));
    }

    /** A bfloat16 copy of a float32 array (round to nearest even). */
    public static NDArray toBfloat16(NDArray x) {
        return call("to_bfloat16", x);
    }

    /**
     * An uninitialised array of {@code x}'s element type and shape but for its last axis, which is {@code width}
     * long, contiguous (row-major), for a native kernel to write into.
     */
    public static NDArray emptyLike(NDArray x, long width) {
        return run("empty_like", x.getManager(), new ScriptCall().tensor(x).integer(width));
    }

    /** A float32 copy of a bfloat16 array (exact). */
    public static NDArray toFloat32(NDArray x) {
        return call("to_float32", x);
    }

    private static NDArray call(String method, NDArray... arrays) {
        ScriptCall call = new ScriptCall();
        for (NDArray array : arrays) {
            call.tensor(array);
        }
        return run(method, arrays[0].getManager(), call);
    }

    private static NDArray run(String method, NDManager manager, ScriptCall call) {
        return Module.INSTANCE.runTensors(method, manager, call).singletonOrThrow();
    }
}
