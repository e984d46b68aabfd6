package io.sam3stream.device;

import java.nio.ByteBuffer;

/**
 * Scaled dot-product attention with bfloat16 operands on the host CPU, in the native library's own AVX512-BF16
 * kernel: out = softmax(q·kᵀ·scale)·v per batch entry and head, with float32 scores, softmax statistics and
 * accumulation, and the probabilities rounded to bfloat16 before they weight v (as a bfloat16 matrix product of
 * them would). No mask: every key is attended.
 *
 * <p>The kernel has two bodies that compute the same function ({@link Body}): on AMX tiles where the CPU has them,
 * and on AVX512-BF16 vectors elsewhere. The CPU engine uses it where libtorch's bfloat16 attention is slow: with
 * AVX512-BF16 alone, libtorch's fused bfloat16 kernel is no faster than its float32 one, and with AMX it spends most
 * of its time in a softmax at AVX2 width, which the tile body runs at AVX-512 width on a block kept in L1.
 *
 * <p>Every operand is a direct buffer of raw bfloat16 values, a token's heads side by side in one row (the layout of
 * a linear projection's output), so no head split or merge is needed around the call. The rows of q, k and v may
 * be further apart than their width: q, k and v may be slices of one packed qkv projection.
 */
public final class Bf16Attention {

    /** The widest head the kernel takes (its accumulators must stay in registers); heads must also be even. */
    public static final int MAX_HEAD_DIM = 64;

    private Bf16Attention() {}

    /** The instructions that compute the kernel's two products. */
    public enum Body {
        /** AVX512-BF16: two bfloat16 products per float32 lane, a block of scores in vector registers. */
        VECTORS,
        /** AMX: bfloat16 tile products, the softmax between them on AVX-512 vectors. */
        TILES
    }

    /**
     * True when the kernel can run here: the native library loads and holds it, and the CPU has AVX512-BF16 (with
     * AVX-512 F, BW and VL).
     */
    public static boolean available() {
        return runs(Body.VECTORS);
    }

    /**
     * True when the given body runs here: {@link Body#VECTORS} as {@link #available()}; {@link Body#TILES} also
     * needs AMX-BF16 and the operating system's leave to use the tile registers. Asked of the library once.
     */
    public static boolean runs(Body body) {
        return body == Body.TILES ? Support.TILES : Support.VECTORS;
    }

    /** What the library answers for each body, asked once: every attention call picks its body from it. */
    private static final class Support {
        static final boolean VECTORS = NativeLibrary.answersYes(() -> runsBody(Body.VECTORS.ordinal()));
        static final boolean TILES = NativeLibrary.answersYes(() -> runsBody(Body.TILES.ordinal()));
    }

    /** The body {@link #attend} takes: tiles where they run, else vectors (meaningful where {@link #available()}). */
    public static Body best() {
        return runs(Body.TILES) ? Body.TILES : Body.VECTORS;
    }

    /**
     * Attends every query to every key, with the {@link #best()} body.
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
        attend(q, k, v, out, batch, qTokens, kvTokens, heads, headDim, rowStride, scale, threads, best());
    }

    /**
     * {@link #attend(ByteBuffer, ByteBuffer, ByteBuffer, ByteBuffer, long, long, long, int, int, long, float, int)}
     * with the given body, for comparing the two.
     *
     * @throws DeviceException also if the body does not {@link #runs(Body) run} here
     */
    public static void attend(ByteBuffer q, ByteBuffer k, ByteBuffer v, ByteBuffer out, long batch, long qTokens,
            long kvTokens, int heads, int headDim, long rowStride, float scale, int threads, Body body) {
        NativeLibrary.load();
        run(q, k, v, out, batch, qTokens, kvTokens, heads, headDim, rowStride, scale, threads, body.ordinal());
    }

    private static native boolean runsBody(int body);

    private static native void run(ByteBuffer q, ByteBuffer k, ByteBuffer v, ByteBuffer out, long batch,
            long qTokens, long kvTokens, int heads, int headDim, long rowStride, float scale, int threads, int body);
}
