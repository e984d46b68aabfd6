// Scaled dot-product attention with bfloat16 operands on AVX512-BF16, for the unmasked attentions of the CPU
// engine: the ViT's (global over 5184 tokens, windowed over 576) and the fusion encoder's self-attention of the
// 5184 image tokens.
//
// Why a kernel of our own: libtorch's fused attention only gains from bfloat16 where the CPU multiplies bfloat16
// tiles (AMX); with AVX512-BF16 alone its bfloat16 form is no faster than float32. This kernel keeps one block of
// queries' scores in registers, takes the dot products with vdpbf16ps (two bfloat16 products per float32 lane), and
// packs the keys and values of one head once (0.66 MB at 5184 tokens of 32, 1.3 MB of 64) for every block of
// queries to read.
#pragma once

#include <cstdint>

#include "thread_pool.hpp"

namespace sam3n::host {

/**
 * The shape of one attention call. Each token of q, k and v is a row of heads · head_dim values (head h at
 * h · head_dim), row_stride values after the previous token: heads · head_dim for separate projections, 3 · heads ·
 * head_dim for q, k and v inside one packed qkv projection. The output is row-major (batch, q_tokens, heads ·
 * head_dim).
 */
struct Bf16AttentionShape {
    int64_t batch;
    int64_t q_tokens;
    int64_t kv_tokens;
    int heads;
    int head_dim;
    int64_t row_stride;
};

/** The largest head width the kernel takes (its accumulators must stay in registers). */
constexpr int kBf16AttentionMaxHeadDim = 64;

/** True when this CPU runs the kernel: it has AVX512-BF16 (and AVX-512 F/BW/VL). */
bool bf16_attention_available();

/**
 * out = softmax(q kᵀ · scale) v per batch entry and head, with q, k, v and out in bfloat16 (raw bits) and float32
 * accumulation: the scores, the running maximum and sum of the softmax are float32; the probabilities are rounded
 * to bfloat16 before they weight v, as a bfloat16 matrix product of them would. head_dim must be even and at most
 * kBf16AttentionMaxHeadDim; the caller checks bf16_attention_available() first.
 */
void bf16_attention(const uint16_t* q, const uint16_t* k, const uint16_t* v, uint16_t* out,
                    const Bf16AttentionShape& shape, float scale, ThreadPool& pool);

}  // namespace sam3n::host
