package io.sam3stream.model.nn;

import ai.djl.ndarray.NDArray;

/**
 * How the weight matrices of {@link Linear} layers are held in memory ({@code SAM3_DTYPE}). Arithmetic is float32
 * either way: on CPUs without native bfloat16 instructions (no AVX512-BF16 or AMX) libtorch's bfloat16 matrix
 * product is an order of magnitude slower than its float32 one, so {@link #BF16} widens each matrix to float32 for
 * the product and only halves the memory the weights take.
 */
public enum WeightPrecision {

    /** Matrices stay float32, exactly as loaded. */
    FP32,

    /** Matrices are rounded to bfloat16 once, at load, and widened to float32 for each product. */
    BF16;

    /** The precision named by {@code SAM3_DTYPE} ("fp32" or "bf16", case-insensitive). */
    public static WeightPrecision of(String dtype) {
        return switch (dtype.toLowerCase(java.util.Locale.ROOT)) {
            case "fp32" -> FP32;
            case "bf16" -> BF16;
            default -> throw new IllegalArgumentException("unknown weight dtype " + dtype + " (fp32 or bf16)");
        };
    }

    /**
     * A float32 matrix as this precision stores it; for {@link #BF16} the float32 array is closed and a bfloat16
     * copy returned.
     */
    NDArray store(NDArray float32) {
        if (this == FP32) {
            return float32;
        }
        NDArray narrow = FusedOps.toBfloat16(float32);
        float32.close();
        return narrow;
    }

    /** The matrix as float32 for a product: itself for {@link #FP32}, a new widened copy for {@link #BF16}. */
    NDArray widen(NDArray stored) {
        return this == FP32 ? stored : FusedOps.toFloat32(stored);
    }
}
