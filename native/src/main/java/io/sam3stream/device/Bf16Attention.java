package io.sam3stream.device;

import java.nio.ByteBuffer;

/**
 * Scaled dot-product attention with bfloat16 operands on the host CPU, in the native library's own AVX512-BF16
 * kernel: out = softmax(q·kᵀ·scale)·v per batch entry and head, with float32 scores, softmax statistics and
 * accumulation, and the probabilities rounded to bfloat16 before they weight v (as a bfloat16 matrix product of
 * them would). No mask: every key is attended.
 *
 * <p>The CPU engine uses it where libtorch has no fast bfloat16 attention: on CPUs with AVX512-BF16 but without AMX
 * tiles, libtorch's fused bfloat16 kernel is no faster than its float32 one, while this one keeps a block of scores
 * in registers and multiplies two bfloat16 pairs per float32 lane.
 *
 * <p>Every operand is a direct buffer of raw bfloat16 values, a token's heads side by side in one row (the layout of
 * a linear projection's output), so no head split or merge is needed around the call. The rows of q, k and v may
 * be further apart than their width: q, k and v may be slices of one packed qkv projection.
 */
public final class Bf16Attention {

    /** The widest head the kernel takes (its accumulators must stay in registers); heads must also be even. */
    public static final int MAX_HEAD_DIM = 64;

    private Bf16Attention() {}

    /**
     * True when the kernel can run here: the native library loads and holds it, and the CPU has AVX512-BF16 (with
     * AVX-512 F, BW and VL).
     */
    public static boolean available() {
        try {
            NativeLibrary.load();
            return cpuSupported();
        } catch (DeviceException e) {
            return false;
        } catch (UnsatisfiedLinkError e) {
            // a library built before this kernel existed (SAM3_NATIVE_LIB naming an older build)
            return false;
        }
    }

    /**
     * Attends every query to every key.
     *
     * @param q         (batch, qTokens) rows of heads · headDim bfloat16 values, rowStride values apart
     * @param k         (batch, kvTokens) rows, as q
     * @param v         (batch, kvTokens) rows, as q
     * @param out       (batch, qTokens, heads · headDim) bfloat16, row-major, written
     * @param headDim   even, at most {@link #MAX_HEAD_DIM}
     * @param rowStride values from one token's row of q, k or v to the next: at least heads · headDim
     * @param scale     factor of the scores, usually 1/√headDim
     * @param threads  how many threads share the work (the caller's included)
     * @throws DeviceException if the kernel is not {@link #available()}, a buffer is not direct or too small, or
     *     the shape is not one the kernel takes
     */
    public static void attend(ByteBuffer q, ByteBuffer k, ByteBuffer v, ByteBuffer out, long batch, long qTokens,
            long kvTokens, int heads, int headDim, long rowStride, float scale, int threads) {
        NativeLibrary.load();
        run(q, k, v, out, batch, qTokens, kvTokens, heads, headDim, rowStride, scale, threads);
    }

    private static native boolean cpuSupported();

    private static native void run(ByteBuffer q, ByteBuffer k, ByteBuffer v, ByteBuffer out, long batch,
            long qTokens, long kvTokens, int heads, int headDim, long rowStride, float scale, int threads);
}
