// The inner loops whose speed matters, compiled once per instruction set and chosen at run time, so that
// one library runs on any x86-64 and uses AVX2/FMA where the CPU has it.
#pragma once

#include <cstdint>

namespace sam3n::host {

struct CpuKernels {
    const char* name;
    /** Rows and columns of the register tile the GEMM micro-kernel computes. */
    int mr;
    int nr;
    /**
     * c[i * ldc + j] (+)= sum_k a[k * mr + i] * b[k * nr + j] for i < mr, j < nr: one register tile of the
     * product of a packed A sliver (kc x mr) and a packed B sliver (kc x nr). accumulate = false overwrites c.
     */
    void (*gemm_tile)(int64_t kc, const float* a, const float* b, float* c, int64_t ldc, bool accumulate);
    /**
     * Softmax of scale * x over n values, in place. Entries equal to -infinity get probability 0; at least
     * one entry must be finite.
     */
    void (*softmax)(float* x, int64_t n, float scale);
    /** x = x * (1 + erf(x / sqrt(2))) / 2, the exact GELU (nn.GELU(approximate="none")), in place. */
    void (*gelu)(float* x, int64_t n);
};

/**
 * The best kernels this CPU supports, chosen on first use. The environment variable SAM3_NATIVE_ISA
 * ("generic" or "avx2") forces a set, for tests and comparisons; an unsupported choice is an error.
 */
const CpuKernels& cpu_kernels();

/** The kernel sets compiled into the library (those this CPU can run). */
const CpuKernels* const* available_cpu_kernels(int* count);

}  // namespace sam3n::host
