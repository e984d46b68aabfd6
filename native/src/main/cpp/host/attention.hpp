// Scaled dot-product attention over many independent heads (windows x heads, batch x heads).
#pragma once

#include <cstdint>
#include <vector>

#include "cpu_kernels.hpp"
#include "thread_pool.hpp"

namespace sam3n::host {

/** One head of one sequence; every operand is a strided view into a larger row-major buffer. */
struct AttentionHead {
    const float* q;
    int64_t ldq;
    int64_t q_len;
    const float* k;
    int64_t ldk;
    const float* v;
    int64_t ldv;
    int64_t kv_len;
    /** kv_len flags, non-zero = key ignored (PyTorch key_padding_mask); null = every key attended. */
    const uint8_t* key_padding;
    float* out;
    int64_t ldo;
};

/** out = softmax(q k^T / sqrt(head_dim)) v for every head, spread over the pool. */
void attention(const std::vector<AttentionHead>& heads, int head_dim, const CpuKernels& kernels, ThreadPool& pool);

}  // namespace sam3n::host
