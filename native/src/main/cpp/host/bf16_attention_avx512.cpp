// The AVX512-BF16 body of bf16_attention (bf16_attention.hpp). This file alone is compiled for AVX-512 with
// bfloat16 instructions; bf16_attention.cpp checks the CPU before calling into it.
#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "bf16_attention_bodies.hpp"
#include "bf16_attention_vector_math.hpp"

namespace sam3n::host {

namespace {

using namespace bf16_attention_math;

// Keys are packed in blocks of 64: per pair of dimensions, 4 vectors of 16 keys.
constexpr int kGroups = 4;
constexpr int kBlockKeys = 16 * kGroups;
// Keys per softmax step: the scores of up to 8 queries against them are 8 KB of float32.
constexpr int kStepKeys = 4 * kBlockKeys;
// A register block is Rows queries against Groups vectors of 16 keys, Rows × Groups score accumulators, and the
// Rows queries' outputs are Rows × head_dim / 16 accumulators. Heads of up to 32 dimensions take 8 queries against
// 32 keys: their outputs are then 16 independent accumulator chains, enough to keep both vdpbf16ps pipes busy in
// the probabilities × values product, where 4 queries left 8 chains waiting on the instruction's latency. Wider
// heads take 4 queries against 64 keys: more output accumulators would spill the 32 vector registers.
constexpr int kMaxRows = 8;

template <int kVectors>
struct RegisterBlock {
    static constexpr int kRows = kVectors <= 2 ? 8 : 4;
    static constexpr int kScoreGroups = kVectors <= 2 ? 2 : 4;
};

/** One thread's packed keys and values of the head it works on, and one step's scores and probabilities. */
struct Scratch {
    Bf16Buffer keys;
    Bf16Buffer values;
    alignas(64) float scores[kMaxRows][kStepKeys];
    alignas(64) uint16_t probabilities[kMaxRows][kStepKeys];
};

/**
 * Keys of one head as vdpbf16ps takes them: per block of 64 keys, per pair of dimensions (2d, 2d+1), 4 vectors
 * of 16 keys × that pair. Keys past the end are zero (their scores are masked anyway).
 */
void pack_keys(const uint16_t* k, int64_t ldk, int64_t tokens, int head_dim, Bf16Buffer& packed) {
    const int pairs = head_dim / 2;
    const int64_t blocks = (tokens + kBlockKeys - 1) / kBlockKeys;
    packed.assign(static_cast<size_t>(blocks * pairs * kBlockKeys * 2), 0);
    uint32_t* out = reinterpret_cast<uint32_t*>(packed.data());
    for (int64_t key = 0; key < tokens; ++key) {
        const int64_t block = key / kBlockKeys;
        const int64_t lane = key % kBlockKeys;  // group × 16 + lane within the group
        const uint16_t* row = k + key * ldk;
        for (int d = 0; d < pairs; ++d) {
            out[(block * pairs + d) * kBlockKeys + lane] = load_pair(row + 2 * d);
        }
    }
}

/**
 * Values of one head as vdpbf16ps takes them when the output dimensions are the lanes: per pair of keys
 * (2j, 2j+1), per 16 output dimensions, one vector of 16 dimensions × that pair. Keys past the end and dimensions
 * past head_dim are zero.
 */
void pack_values(const uint16_t* v, int64_t ldv, int64_t tokens, int head_dim, int vectors, Bf16Buffer& packed) {
    const int64_t blocks = (tokens + kBlockKeys - 1) / kBlockKeys;
    const int64_t width = static_cast<int64_t>(vectors) * 16;
    packed.assign(static_cast<size_t>(blocks * kBlockKeys * width), 0);
    uint16_t* out = packed.data();
    for (int64_t key = 0; key < tokens; ++key) {
        const uint16_t* row = v + key * ldv;
        uint16_t* pair = out + (key / 2) * width * 2 + (key % 2);
        for (int d = 0; d < head_dim; ++d) {
            pair[2 * d] = row[d];
        }
    }
}

/**
 * The scores of up to Rows queries against Groups vectors of 16 keys of one packed block, starting at vector
 * first_group, in registers, written to the float32 score rows; keys past the end score -inf.
 */
template <int Rows, int Groups>
inline void score_block(const uint16_t* const* query, const uint16_t* block_keys, int first_group, int pairs,
                        int64_t first_key, int64_t kv_tokens, float* scores, int64_t score_stride) {
    __m512 score[Rows][Groups];
    #pragma GCC unroll 16
    for (int r = 0; r < Rows; ++r) {
        #pragma GCC unroll 16
        for (int g = 0; g < Groups; ++g) {
            score[r][g] = _mm512_setzero_ps();
        }
    }
    for (int d = 0; d < pairs; ++d) {
        __m512bh key[Groups];
        #pragma GCC unroll 16
        for (int g = 0; g < Groups; ++g) {
            key[g] = as_bf16(_mm512_load_si512(block_keys + (d * kBlockKeys + (first_group + g) * 16) * 2));
        }
        #pragma GCC unroll 16
        for (int r = 0; r < Rows; ++r) {
            const __m512bh qd = as_bf16(_mm512_set1_epi32(static_cast<int>(load_pair(query[r] + 2 * d))));
            #pragma GCC unroll 16
            for (int g = 0; g < Groups; ++g) {
                score[r][g] = _mm512_dpbf16_ps(score[r][g], qd, key[g]);
            }
        }
    }
    const __m512 minus_infinity = _mm512_set1_ps(-std::numeric_limits<float>::infinity());
    #pragma GCC unroll 16
    for (int g = 0; g < Groups; ++g) {
        const __mmask16 live = live_lanes(first_key + g * 16, kv_tokens);
        #pragma GCC unroll 16
        for (int r = 0; r < Rows; ++r) {
            _mm512_store_ps(scores + r * score_stride + g * 16, _mm512_mask_blend_ps(live, minus_infinity, score[r][g]));
        }
    }
}

/**
 * Up to RegisterBlock::kRows queries of one head against every key: flash-style online softmax over steps of
 * kStepKeys keys. Each step's scores are computed a register block at a time and kept in a small float32 buffer (in L1), so
 * the row maximum and sum, whose horizontal reductions are slow, are taken once per step rather than per 64 keys.
 */
template <int kVectors>
void attend_rows(const uint16_t* q, int64_t ldq, int rows, int head_dim, int64_t kv_tokens, float scale_log2,
                 Scratch& scratch, uint16_t* out, int64_t ldo) {
    constexpr int kRows = RegisterBlock<kVectors>::kRows;
    constexpr int kScoreGroups = RegisterBlock<kVectors>::kScoreGroups;
    const int pairs = head_dim / 2;
    const uint16_t* query[kRows];
    #pragma GCC unroll 16
    for (int r = 0; r < kRows; ++r) {
        query[r] = q + std::min(r, rows - 1) * ldq;  // rows past the end repeat the last; never stored
    }
    __m512 acc[kRows][kVectors];
    float row_max[kRows];
    float row_sum[kRows];
    #pragma GCC unroll 16
    for (int r = 0; r < kRows; ++r) {
        #pragma GCC unroll 16
        for (int e = 0; e < kVectors; ++e) {
            acc[r][e] = _mm512_setzero_ps();
        }
        row_max[r] = -std::numeric_limits<float>::infinity();
        row_sum[r] = 0.0f;
    }
    const __m512 scale = _mm512_set1_ps(scale_log2);
    const uint16_t* keys = scratch.keys.data();
    const uint16_t* values = scratch.values.data();
    for (int64_t step = 0; step < kv_tokens; step += kStepKeys) {
        const int64_t step_keys = std::min<int64_t>(kStepKeys, kv_tokens - step);
        const int64_t step_vectors = (step_keys + 15) / 16;
        for (int64_t block = 0; block * kBlockKeys < step_keys; ++block) {
            const int64_t first_key = step + block * kBlockKeys;
            #pragma GCC unroll 4
            for (int group = 0; group < kGroups; group += kScoreGroups) {
                score_block<kRows, kScoreGroups>(query, keys + first_key * pairs * 2, group, pairs,
                                                 first_key + group * 16, kv_tokens,
                                                 scratch.scores[0] + block * kBlockKeys + group * 16, kStepKeys);
            }
        }
        #pragma GCC unroll 16
        for (int r = 0; r < kRows; ++r) {
            const float* score = scratch.scores[r];
            __m512 widest = _mm512_load_ps(score);
            for (int64_t i = 1; i < step_vectors; ++i) {
                widest = _mm512_max_ps(widest, _mm512_load_ps(score + i * 16));
            }
            const float new_max = std::max(row_max[r], _mm512_reduce_max_ps(widest));
            // 2^-inf = 0 on the first step, where the accumulators are still zero
            const float rescale = std::exp2((row_max[r] - new_max) * scale_log2);
            const __m512 shift = _mm512_set1_ps(new_max * scale_log2);
            __m512 sum = _mm512_setzero_ps();
            for (int64_t i = 0; i < step_vectors; ++i) {
                __m512 p = exp2_of_nonpositive(_mm512_fmsub_ps(_mm512_load_ps(score + i * 16), scale, shift));
                if (step_keys < kStepKeys) {
                    // the last step may hold keys past the end, scored -inf: their probability is 0
                    p = _mm512_maskz_mov_ps(live_lanes(step + i * 16, kv_tokens), p);
                }
                sum = _mm512_add_ps(sum, p);
                _mm256_store_si256(reinterpret_cast<__m256i*>(&scratch.probabilities[r][i * 16]),
                                   reinterpret_cast<__m256i>(_mm512_cvtneps_pbh(p)));
            }
            row_sum[r] = row_sum[r] * rescale + _mm512_reduce_add_ps(sum);
            row_max[r] = new_max;
            const __m512 factor = _mm512_set1_ps(rescale);
            #pragma GCC unroll 16
            for (int e = 0; e < kVectors; ++e) {
                acc[r][e] = _mm512_mul_ps(acc[r][e], factor);
            }
        }
        const uint16_t* step_values = values + (step / 2) * kVectors * 32;
        const int64_t live_pairs = (step_keys + 1) / 2;
        for (int64_t j = 0; j < live_pairs; ++j) {
            __m512bh value[kVectors];
            #pragma GCC unroll 16
            for (int e = 0; e < kVectors; ++e) {
                value[e] = as_bf16(_mm512_load_si512(step_values + (j * kVectors + e) * 32));
            }
            #pragma GCC unroll 16
            for (int r = 0; r < kRows; ++r) {
                const __m512bh p = as_bf16(
                        _mm512_set1_epi32(static_cast<int>(load_pair(&scratch.probabilities[r][2 * j]))));
                #pragma GCC unroll 16
                for (int e = 0; e < kVectors; ++e) {
                    acc[r][e] = _mm512_dpbf16_ps(acc[r][e], p, value[e]);
                }
            }
        }
    }
    for (int r = 0; r < rows; ++r) {
        const __m512 inverse = _mm512_set1_ps(1.0f / row_sum[r]);
        #pragma GCC unroll 16
        for (int e = 0; e < kVectors; ++e) {
            const int n = std::min(16, head_dim - e * 16);
            const __m256i narrow = reinterpret_cast<__m256i>(_mm512_cvtneps_pbh(_mm512_mul_ps(acc[r][e], inverse)));
            _mm256_mask_storeu_epi16(out + r * ldo + e * 16, static_cast<__mmask16>((1u << n) - 1u), narrow);
        }
    }
}

template <int kVectors>
void attend_head_rows(const uint16_t* q, int64_t ldq, int64_t first, int64_t end, int head_dim, int64_t kv_tokens,
                      float scale_log2, Scratch& scratch, uint16_t* out, int64_t ldo) {
    constexpr int kRows = RegisterBlock<kVectors>::kRows;
    for (int64_t row = first; row < end; row += kRows) {
        const int rows = static_cast<int>(std::min<int64_t>(kRows, end - row));
        attend_rows<kVectors>(q + row * ldq, ldq, rows, head_dim, kv_tokens, scale_log2, scratch, out + row * ldo,
                              ldo);
    }
}

}  // namespace

void bf16_attention_avx512(const uint16_t* q, const uint16_t* k, const uint16_t* v, uint16_t* out,
                           const Bf16AttentionShape& shape, float scale, ThreadPool& pool) {
    const int head_dim = shape.head_dim;
    const int vectors = (head_dim + 15) / 16;
    const int64_t ld = shape.row_stride;
    const int64_t ldo = static_cast<int64_t>(shape.heads) * head_dim;
    const Bf16AttentionTasks tasks(shape, pool.size(), kMaxRows);
    const float scale_log2 = scale * kLog2E;
    pool.parallel_for(tasks.count(), [&](int64_t index) {
        thread_local Scratch scratch;
        const auto [b, h, first, end] = tasks[index];
        pack_keys(k + b * shape.kv_tokens * ld + h * head_dim, ld, shape.kv_tokens, head_dim, scratch.keys);
        pack_values(v + b * shape.kv_tokens * ld + h * head_dim, ld, shape.kv_tokens, head_dim, vectors,
                    scratch.values);
        const uint16_t* qh = q + b * shape.q_tokens * ld + h * head_dim;
        uint16_t* oh = out + b * shape.q_tokens * ldo + h * head_dim;
        const int64_t kv = shape.kv_tokens;
        switch (vectors) {
            case 1: attend_head_rows<1>(qh, ld, first, end, head_dim, kv, scale_log2, scratch, oh, ldo); break;
            case 2: attend_head_rows<2>(qh, ld, first, end, head_dim, kv, scale_log2, scratch, oh, ldo); break;
            case 3: attend_head_rows<3>(qh, ld, first, end, head_dim, kv, scale_log2, scratch, oh, ldo); break;
            default: attend_head_rows<4>(qh, ld, first, end, head_dim, kv, scale_log2, scratch, oh, ldo); break;
        }
    });
}

}  // namespace sam3n::host
