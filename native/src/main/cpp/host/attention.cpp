#include "attention.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "gemm.hpp"

namespace sam3n::host {

namespace {

// Query rows per task: a task holds kQueryRows x kv_len scores (2 MB for the 5184-token global attention)
// instead of the whole kv_len^2 matrix, and a head still splits into enough tasks to keep every thread busy.
constexpr int64_t kQueryRows = 96;

}  // namespace

void attention(const std::vector<AttentionHead>& heads, int head_dim, const CpuKernels& kernels, ThreadPool& pool) {
    // Keys (as K^T) and values are packed once per head and shared by all of that head's query blocks.
    std::vector<PackedB> keys(heads.size());
    std::vector<PackedB> values(heads.size());
    pool.parallel_for(static_cast<int64_t>(heads.size()), [&](int64_t h) {
        const AttentionHead& a = heads[static_cast<std::size_t>(h)];
        keys[static_cast<std::size_t>(h)].pack_transposed(a.k, a.kv_len, head_dim, a.ldk, kernels.nr);
        values[static_cast<std::size_t>(h)].pack(a.v, a.kv_len, head_dim, a.ldv, kernels.nr);
    });

    std::vector<int64_t> first_task(heads.size() + 1, 0);
    for (std::size_t h = 0; h < heads.size(); ++h) {
        first_task[h + 1] = first_task[h] + (heads[h].q_len + kQueryRows - 1) / kQueryRows;
    }
    const float scale = 1.0f / std::sqrt(static_cast<float>(head_dim));
    pool.parallel_for(first_task.back(), [&](int64_t task) {
        const auto h = static_cast<std::size_t>(
            std::upper_bound(first_task.begin(), first_task.end(), task) - first_task.begin() - 1);
        const AttentionHead& a = heads[h];
        const int64_t row0 = (task - first_task[h]) * kQueryRows;
        const int64_t rows = std::min(kQueryRows, a.q_len - row0);
        thread_local std::vector<float> scores;
        scores.resize(static_cast<std::size_t>(rows * a.kv_len));
        gemm(kernels, rows, a.q + row0 * a.ldq, a.ldq, keys[h], scores.data(), a.kv_len, Epilogue{}, nullptr);
        for (int64_t r = 0; r < rows; ++r) {
            float* row = scores.data() + r * a.kv_len;
            if (a.key_padding != nullptr) {
                for (int64_t j = 0; j < a.kv_len; ++j) {
                    if (a.key_padding[j] != 0) {
                        row[j] = -std::numeric_limits<float>::infinity();
                    }
                }
            }
            kernels.softmax(row, a.kv_len, scale);
        }
        gemm(kernels, rows, scores.data(), a.kv_len, values[h], a.out + row0 * a.ldo, a.ldo, Epilogue{}, nullptr);
    });
}

}  // namespace sam3n::host
