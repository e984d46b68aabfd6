// The two parameterised building blocks of both islands: LayerNorm and nn.Linear.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "../core/weight_store.hpp"
#include "gemm.hpp"

namespace sam3n::host {

/** nn.LayerNorm over the last dimension, eps 1e-5 (SAM3's norm_layer everywhere on these islands). */
class LayerNorm {
public:
    /** Takes prefix + "weight" and prefix + "bias". */
    static LayerNorm take(WeightStore& weights, const std::string& prefix);

    /** y = LN(x) for `rows` rows of width(); x and y may be the same buffer. */
    void apply(const float* x, float* y, int64_t rows, ThreadPool& pool) const;

    int64_t width() const { return static_cast<int64_t>(gamma_.size()); }

private:
    std::vector<float> gamma_;
    std::vector<float> beta_;
};

/** nn.Linear: y = x W^T + b, with W packed once for the CPU's kernels. */
class Linear {
public:
    /** Takes prefix + "weight" (out x in) and, if with_bias, prefix + "bias". */
    static Linear take(WeightStore& weights, const std::string& prefix, bool with_bias, const CpuKernels& kernels);

    /** Output rows [first, first + count) of a larger weight: one of the q, k, v parts of a packed in_proj. */
    static Linear rows_of(const HostWeight& weight, const HostWeight& bias, int64_t first, int64_t count,
                          const CpuKernels& kernels);

    /** y (rows x out, row stride ldy) = or += x (rows x in, row stride ldx) W^T + b, then the activation. */
    void apply(const float* x, int64_t ldx, int64_t rows, float* y, int64_t ldy, Activation activation,
               bool accumulate, ThreadPool& pool) const;

    int64_t in() const { return weight_.k(); }

private:
    Linear(const float* weight, int64_t out, int64_t in, std::vector<float> bias, const CpuKernels& kernels);

    const CpuKernels* kernels_;
    PackedB weight_;
    std::vector<float> bias_;
};

}  // namespace sam3n::host
