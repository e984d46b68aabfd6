#include "layers.hpp"

#include <cmath>

namespace sam3n::host {

namespace {

constexpr double kLayerNormEps = 1e-5;

// Rows per LayerNorm task: enough work per task to amortise the scheduling.
constexpr int64_t kNormRowsPerTask = 64;

}  // namespace

LayerNorm LayerNorm::take(WeightStore& weights, const std::string& prefix) {
    LayerNorm ln;
    ln.gamma_ = weights.take(prefix + "weight").values;
    ln.beta_ = weights.take(prefix + "bias").values;
    return ln;
}

void LayerNorm::apply(const float* x, float* y, int64_t rows, ThreadPool& pool) const {
    const int64_t n = width();
    pool.parallel_ranges(rows, kNormRowsPerTask, [&](int64_t begin, int64_t end) {
        for (int64_t r = begin; r < end; ++r) {
            const float* in = x + r * n;
            float* out = y + r * n;
            // Two passes in double: the mean first, then the (biased) variance around it, as nn.LayerNorm.
            double sum = 0.0;
            for (int64_t j = 0; j < n; ++j) {
                sum += in[j];
            }
            const double mean = sum / static_cast<double>(n);
            double squares = 0.0;
            for (int64_t j = 0; j < n; ++j) {
                const double d = in[j] - mean;
                squares += d * d;
            }
            const double inv_std = 1.0 / std::sqrt(squares / static_cast<double>(n) + kLayerNormEps);
            const auto m = static_cast<float>(mean);
            const auto s = static_cast<float>(inv_std);
            for (int64_t j = 0; j < n; ++j) {
                out[j] = (in[j] - m) * s * gamma_[static_cast<std::size_t>(j)] + beta_[static_cast<std::size_t>(j)];
            }
        }
    });
}

Linear::Linear(const float* weight, int64_t out, int64_t in, std::vector<float> bias, const CpuKernels& kernels)
    : kernels_(&kernels), bias_(std::move(bias)) {
    weight_.pack_transposed(weight, out, in, in, kernels.nr);
}

Linear Linear::take(WeightStore& weights, const std::string& prefix, bool with_bias, const CpuKernels& kernels) {
    HostWeight w = weights.take(prefix + "weight");
    std::vector<float> bias = with_bias ? weights.take(prefix + "bias").values : std::vector<float>();
    // A convolution weight (out, in, kh, kw) is the matrix (out, in * kh * kw) over im2col rows.
    const int64_t out = w.shape[0];
    const auto in = static_cast<int64_t>(w.values.size()) / out;
    return Linear(w.values.data(), out, in, std::move(bias), kernels);
}

Linear Linear::rows_of(const HostWeight& weight, const HostWeight& bias, int64_t first, int64_t count,
                       const CpuKernels& kernels) {
    const int64_t in = weight.shape[1];
    std::vector<float> b(bias.values.begin() + first, bias.values.begin() + first + count);
    return Linear(weight.values.data() + first * in, count, in, std::move(b), kernels);
}

void Linear::apply(const float* x, int64_t ldx, int64_t rows, float* y, int64_t ldy, Activation activation,
                   bool accumulate, ThreadPool& pool) const {
    Epilogue e;
    e.bias = bias_.empty() ? nullptr : bias_.data();
    e.activation = activation;
    e.accumulate = accumulate;
    gemm(*kernels_, rows, x, ldx, weight_, y, ldy, e, &pool);
}

}  // namespace sam3n::host
