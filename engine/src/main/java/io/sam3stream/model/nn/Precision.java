package io.sam3stream.model.nn;

import ai.djl.ndarray.NDArray;

/**
 * The number formats a model computes in. In float32 every product matches upstream to float rounding. In the
 * bfloat16 modes the matrices of every {@link Linear} layer (and its bias) are held once, in bfloat16, and the
 * layers' products take bfloat16 operands with float32 accumulation, as {@code torch.autocast("cpu",
 * dtype=torch.bfloat16)} runs them; norms, softmax statistics, RoPE, position encodings, box arithmetic and
 * post-processing stay float32, and every activation between two layers is float32 again. Convolutions follow
 * {@link #bf16Convolutions}.
 *
 * <p>Attention is a separate choice: libtorch's fused bfloat16 attention kernel is only faster than its float32 one
 * where the CPU multiplies bfloat16 tiles natively (AMX); with AVX512-BF16 alone it is slower (see
 * {@code docs/PERFORMANCE.md}), so {@link #BF16_LINEAR} keeps libtorch's attention in float32. The attentions
 * without mask or bias (the ViT's, and the fusion encoder's self-attention of the image tokens, the prompt side's
 * largest cost) are the exception: on a CPU with AVX512-BF16 they run in {@link NativeBf16Attention}, sam3's own
 * kernel, with bfloat16 operands and probabilities, as {@link #BF16}'s attention computes them.
 *
 * @param bf16Linear    linear layers hold bfloat16 matrices and multiply in bfloat16
 * @param bf16Attention the attention products (q·kᵀ and the weighted sum of v) take bfloat16 operands too;
 *                      only together with {@code bf16Linear}
 */
public record Precision(boolean bf16Linear, boolean bf16Attention) {

    /** Float32 throughout: upstream's numerics. */
    public static final Precision FP32 = new Precision(false, false);

    /**
     * Linear layers in bfloat16, attention in float32 but for the unmasked attentions that
     * {@link NativeBf16Attention} serves.
     */
    public static final Precision BF16_LINEAR = new Precision(true, false);

    /** Linear layers and attention in bfloat16. */
    public static final Precision BF16 = new Precision(true, true);

    public Precision {
        if (bf16Attention && !bf16Linear) {
            throw new IllegalArgumentException("bfloat16 attention is only offered with bfloat16 linear layers");
        }
    }

    /** True when nothing is computed in bfloat16. */
    public boolean isFp32() {
        return !bf16Linear;
    }

    /**
     * True when the linear layers and attention compute in one number format ({@link #FP32} or {@link #BF16}): the
     * precisions most compiled prompt graphs take, since they read the format of a module's attention from the
     * format of its weights (the fusion and text encoders' graphs are told it, and take every precision).
     */
    public boolean singleFormat() {
        return bf16Linear == bf16Attention;
    }

    /**
     * True when a {@link Conv2d} loaded in this precision holds bfloat16 parameters and convolves in bfloat16: in
     * {@link #BF16}, and in {@link #BF16_LINEAR} where libtorch's oneDNN multiplies bfloat16 natively
     * ({@link FusedOps#oneDnnMultipliesBf16}), whose bfloat16 convolutions then take well under the float32 time
     * (the segmentation head's 3×3 convolution at 288² 0.57× on a Zen 5, see {@code docs/PERFORMANCE.md}); emulated
     * bfloat16 would be slower than float32. Which convolutions are loaded in the model's precision is the model's
     * choice (the pixel decoder's; the neck's stay float32).
     */
    public boolean bf16Convolutions() {
        return bf16Attention || bf16Linear && FusedOps.oneDnnMultipliesBf16();
    }

    /**
     * True when large bfloat16 linear layers hold their matrices in oneDNN's blocked layout
     * ({@link Linear#withBlockedMatrix}): with bfloat16 attention, which is chosen only with AMX and where the
     * blocked form was measured faster (the ViT's MLP 82-90 ms against 100-105 ms at 5184 tokens, see
     * {@code docs/PERFORMANCE.md}), and only where libtorch's oneDNN multiplies bfloat16 natively
     * ({@link FusedOps#oneDnnMultipliesBf16}); elsewhere an explicitly chosen bf16 keeps plain matrices.
     */
    public boolean blocksLinearMatrices() {
        return bf16Attention && FusedOps.oneDnnMultipliesBf16();
    }

    /**
     * True when bfloat16 linear layers that multiply a few rows at a time ({@link Linear#withBlockedMatrixForFewRows}:
     * the text encoder's, a prompt's 4-32 tokens) hold their matrices in oneDNN's blocked layout: wherever libtorch's
     * oneDNN multiplies bfloat16 natively ({@link FusedOps#oneDnnMultipliesBf16}). Such a product reads its matrix
     * once, and a plain matrix is reordered on every call, which at four rows took 2.4-3.6x the blocked product's
     * time and the full-size text encoder from 0.10-0.14 s to 0.18-0.20 s per prompt on a Zen 5
     * ({@code docs/PERFORMANCE.md}, "Blocked text encoder matrices").
     */
    public boolean blocksFewRowMatrices() {
        return bf16Linear && FusedOps.oneDnnMultipliesBf16();
    }

    /**
     * How logs, {@code /info} and the benchmarks name it: "fp32", "bf16", and for {@link #BF16_LINEAR} "bf16
     * (AVX512-BF16 attention)" where {@link NativeBf16Attention} runs its unmasked attentions on this CPU, else
     * "bf16 (fp32 attention)".
     */
    public String label() {
        if (!bf16Linear) {
            return "fp32";
        }
        if (bf16Attention) {
            return "bf16";
        }
        return NativeBf16Attention.available() ? "bf16 (AVX512-BF16 attention)" : "bf16 (fp32 attention)";
    }

    @Override
    public String toString() {
        return label();
    }

    /**
     * A float32 weight as a {@link Linear} layer of this precision holds it: itself in float32, else a bfloat16
     * copy (the float32 array is closed, so no float32 copy stays resident).
     */
    NDArray store(NDArray float32) {
        if (!bf16Linear) {
            return float32;
        }
        NDArray narrow = FusedOps.toBfloat16(float32);
        float32.close();
        return narrow;
    }
}
