package io.sam3stream.model.nn;

import ai.djl.ndarray.NDArray;
import ai.djl.pytorch.engine.PtNDArray;
import ai.djl.pytorch.jni.JniUtils;
import io.sam3stream.device.Bf16Attention;
import java.nio.ByteBuffer;

/**
 * Unmasked attention of a bfloat16 module in the native library's bfloat16 kernel ({@link Bf16Attention}): the
 * ViT's attentions and the fusion encoder's self-attention of the image tokens.
 *
 * <ul>
 *   <li>In {@link Precision#BF16_LINEAR} (a CPU with AVX512-BF16 and no AMX) libtorch attends in float32, because
 *       its own bfloat16 attention only gains with AMX tiles; the kernel's vector body takes the bfloat16 products
 *       of the projections as they are and runs in about 0.53× libtorch's float32 time at each of those shapes on a
 *       Zen 4 ({@code docs/PERFORMANCE.md}, "Attention in bfloat16 without AMX").
 *   <li>In {@link Precision#BF16} (a CPU with AMX) libtorch attends in bfloat16 on AMX tiles, and the kernel serves
 *       where its tile body runs, which spends less on the softmax between the tile products
 *       ({@code docs/PERFORMANCE.md}, "Attention on AMX tiles").
 * </ul>
 *
 * <p>Its probabilities are rounded to bfloat16 before they weight the values, as in libtorch's bfloat16 attention,
 * so a module that attends here has the numerics of the {@link Precision#BF16} mode's attention. Attentions with a
 * mask or bias (padding, causal, box-relative) stay libtorch's: the kernel has no mask, and those are short. Both
 * forms of a module (the compiled graph and the op-by-op Java form) call this kernel alike.
 */
public final class NativeBf16Attention {

    private NativeBf16Attention() {}

    /** True when the kernel runs on this CPU (AVX512-BF16) and the native library that holds it loads. */
    public static boolean available() {
        return Bf16Attention.available();
    }

    /**
     * True when an unmasked attention of a module in {@code precision} with heads {@code headDim} wide runs here:
     * the head width is one the kernel takes, and either the precision is {@link Precision#BF16_LINEAR} (linear
     * layers in bfloat16, libtorch's attention float32) and the CPU has AVX512-BF16, or it is {@link Precision#BF16}
     * and the kernel runs on AMX tiles.
     */
    public static boolean serves(Precision precision, long headDim) {
        if (!precision.bf16Linear() || headDim <= 0 || headDim % 2 != 0 || headDim > Bf16Attention.MAX_HEAD_DIM) {
            return false;
        }
        return Bf16Attention.runs(precision.bf16Attention() ? Bf16Attention.Body.TILES : Bf16Attention.Body.VECTORS);
    }

    /**
     * softmax(q·kᵀ/√D)·v per head, on every intra-op thread of the calling thread.
     *
     * @param q     (B, Lq, heads·D) projections, float32 holding bfloat16 values or bfloat16 (narrowed exactly)
     * @param k     (B, Lk, heads·D)
     * @param v     (B, Lk, heads·D)
     * @param heads number of heads
     * @return (B, Lq, heads·D) bfloat16, heads merged as the output projection takes them
     * @throws IllegalArgumentException if the batches or widths differ or the shape is not one {@link #serves}
     */
    public static NDArray attend(NDArray q, NDArray k, NDArray v, int heads) {
        return attend(q, k, v, heads, Bf16Attention.best());
    }

    /**
     * {@link #attend(NDArray, NDArray, NDArray, int)} with the given body of the kernel, for comparing the two.
     *
     * @throws io.sam3stream.device.DeviceException if the body does not run here
     */
    public static NDArray attend(NDArray q, NDArray k, NDArray v, int heads, Bf16Attention.Body body) {
        long[] qs = q.getShape().getShape();
        long[] ks = k.getShape().getShape();
        if (qs.length != 3 || ks.length != 3 || qs[0] != ks[0] || qs[2] != ks[2]
                || !v.getShape().equals(k.getShape()) || qs[2] % heads != 0) {
            throw new IllegalArgumentException("native attention needs q (B, Lq, E), k and v (B, Lk, E) with E a"
                    + " multiple of the heads: " + q.getShape() + ", " + k.getShape() + ", " + v.getShape());
        }
        try (NDArray qn = FusedOps.toBfloat16(q);
                NDArray kn = FusedOps.toBfloat16(k);
                NDArray vn = FusedOps.toBfloat16(v)) {
            NDArray out = FusedOps.emptyLike(qn, qs[2]);
            run(direct(qn), direct(kn), direct(vn), out, qs[0], qs[1], ks[1], heads, qs[2], body);
            return out;
        }
    }

    /**
     * Self-attention over a packed projection: each token's row holds its q, k and v side by side, as a ViT block's
     * {@code qkv} layer writes them.
     *
     * @param qkv   (B, L, 3·heads·D) bfloat16
     * @param heads number of heads
     * @return (B, L, heads·D) bfloat16, heads merged
     * @throws IllegalArgumentException if the width is not three times a multiple of the heads
     */
    public static NDArray attendPacked(NDArray qkv, int heads) {
        long[] s = qkv.getShape().getShape();
        if (s.length != 3 || s[2] % (3L * heads) != 0) {
            throw new IllegalArgumentException("native attention needs a packed qkv (B, L, 3·E) with E a multiple of"
                    + " the heads: " + qkv.getShape());
        }
        long width = s[2] / 3;
        ByteBuffer all = direct(qkv);
        int sliceBytes = Math.toIntExact(all.capacity() - 2 * width * Short.BYTES);
        NDArray out = FusedOps.emptyLike(qkv, width);
        run(all.slice(0, sliceBytes), all.slice(Math.toIntExact(width * Short.BYTES), sliceBytes),
                all.slice(Math.toIntExact(2 * width * Short.BYTES), sliceBytes), out, s[0], s[1], s[1], heads,
                s[2], Bf16Attention.best());
        return out;
    }

    private static void run(ByteBuffer q, ByteBuffer k, ByteBuffer v, NDArray out, long batch, long qTokens,
            long kvTokens, int heads, long rowStride, Bf16Attention.Body body) {
        long width = out.getShape().get(2);
        int headDim = Math.toIntExact(width / heads);
        try {
            Bf16Attention.attend(q, k, v, direct(out), batch, qTokens, kvTokens, heads, headDim, rowStride,
                    (float) (1.0 / Math.sqrt(headDim)), JniUtils.getNumThreads(), body);
        } catch (RuntimeException e) {
            out.close();
            throw e;
        }
    }

    /** The array's own memory (DJL hands a contiguous copy for a strided view, which only inputs may be). */
    private static ByteBuffer direct(NDArray array) {
        return ((PtNDArray) array).toByteBuffer(true);
    }
}
