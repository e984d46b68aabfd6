// Scaled dot-product attention with bfloat16 operands on AVX512-BF16, for the unmasked attentions of the CPU
// engine: the ViT's (global over 5184 tokens, windowed over 576) and the fusion encoder's self-attention of the
// 5184 image tokens.
//
// Why a kernel of our own: with AVX512-BF16 alone, libtorch's bfloat16 fused attention is no faster than its float32
// one; this kernel's vector body keeps one block of queries' scores in registers and takes the dot products with
// vdpbf16ps (two bfloat16 products per float32 lane). Where the CPU has AMX, libtorch's kernel multiplies on tiles
// but spends most of its time in a softmax at AVX2 width; the tile body multiplies on tiles too and keeps a block of
// 16 queries' softmax in L1 at AVX-512 width. Both pack the keys and values of one head once (0.66 MB at 5184 tokens
// of 32, 1.3 MB of 64) for every block of queries to read.
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

/** The instructions that compute the two products of the kernel. */
enum class Bf16AttentionBody {
    kVectors,  // AVX512-BF16: vdpbf16ps on 16-lane vectors, the scores of 4 queries × 64 keys in registers
    kTiles,    // AMX: bfloat16 tile products of 16 queries × 16 keys, the softmax in AVX-512 between them
};

/** True when this CPU runs the given body: AVX512-BF16 (and AVX-512 F/BW/VL); AMX too, and the OS allows it. */
bool bf16_attention_runs(Bf16AttentionBody body);

/** True when this CPU runs the kernel at all (its vector body). */
bool bf16_attention_available();

/** The body bf16_attention takes without one named: tiles where they run, else vectors. */
Bf16AttentionBody bf16_attention_best_body();

/**
 * out = softmax(q kᵀ · scale) v per batch entry and head, with q, k, v and out in bfloat16 (raw bits) and float32
 * accumulation: the scores, the running maximum and sum of the softmax are float32; the probabilities are rounded
 * to bfloat16 before they weight v, as a bfloat16 matrix product of them would. head_dim must be even and at most
 * kBf16AttentionMaxHeadDim; the caller checks bf16_attention_runs(body) first. Both bodies compute the same
 * function; they differ only in the order of the float32 additions.
 */
void bf16_attention(const uint16_t* q, const uint16_t* k, const uint16_t* v, uint16_t* out,
                    const Bf16AttentionShape& shape, float scale, ThreadPool& pool, Bf16AttentionBody body);

/** bf16_attention with the best body. */
void bf16_attention(const uint16_t* q, const uint16_t* k, const uint16_t* v, uint16_t* out,
                    const Bf16AttentionShape& shape, float scale, ThreadPool& pool);

}  // namespace sam3n::host
