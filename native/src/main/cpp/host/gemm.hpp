// Cache-blocked single-precision matrix products C = A B on top of the CpuKernels register tile
// (the BLIS/GotoBLAS loop structure: B packed once into column slivers, A packed per block).
#pragma once

#include <cstdint>

#include "aligned_buffer.hpp"
#include "cpu_kernels.hpp"
#include "thread_pool.hpp"

namespace sam3n::host {

/**
 * The right operand B (k x n) of a product, packed into slivers of nr columns: sliver s holds
 * B[p][s * nr + j] at data[(s * k + p) * nr + j], zero beyond column n. A depth range [p0, p0 + kc) of a
 * sliver is then one contiguous block, which is what the register tile streams.
 */
class PackedB {
public:
    PackedB() = default;

    /** B = W^T for a row-major W (n x k, row stride ld): nn.Linear's weight, or attention keys. */
    void pack_transposed(const float* w, int64_t n, int64_t k, int64_t ld, int nr);

    /** B itself, row-major (k x n, row stride ld): attention values. */
    void pack(const float* b, int64_t k, int64_t n, int64_t ld, int nr);

    int64_t k() const { return k_; }
    int64_t n() const { return n_; }
    int nr() const { return nr_; }
    const float* sliver(int64_t s) const { return data_.data() + s * k_ * nr_; }

private:
    void reset(int64_t k, int64_t n, int nr);

    int64_t k_ = 0;
    int64_t n_ = 0;
    int nr_ = 0;
    AlignedFloats data_;
};

enum class Activation { none, relu, gelu };

/** What happens to the product before it lands in C. */
struct Epilogue {
    /** Added to every row (n values), or null. */
    const float* bias = nullptr;
    /** Applied last; only with accumulate == false. */
    Activation activation = Activation::none;
    /** C += A B (a residual connection) instead of C = A B. */
    bool accumulate = false;
};

/**
 * C (m x b.n(), row stride ldc) = A (m x b.k(), row stride lda) B, then the epilogue. Runs on the pool's
 * threads when one is given, on the calling thread otherwise. b must be packed for kernels.nr.
 */
void gemm(const CpuKernels& kernels, int64_t m, const float* a, int64_t lda, const PackedB& b, float* c, int64_t ldc,
          const Epilogue& epilogue, ThreadPool* pool);

}  // namespace sam3n::host
