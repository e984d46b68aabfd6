// The AMX body of bf16_attention (bf16_attention.hpp): both products, q·kᵀ and p·v, on bfloat16 tiles, and the
// online softmax between them in AVX-512. This file alone is compiled for AMX; bf16_attention.cpp checks the CPU,
// and that Linux lets this process use the tile registers, before calling into it.
//
// Why not libtorch's fused attention, which also multiplies on AMX tiles: with heads of 32 its blocks are mostly
// softmax, which it computes at AVX2 width and through more passes over the scores; here one block of 16 queries
// keeps its scores, probabilities and output in L1 (34 KB) and takes one pass for the maximum and one for the rest.
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

// A tile holds 16 rows of 64 bytes: 16 queries or keys by 32 bfloat16 values, or 16 by 16 float32.
constexpr int kTileRows = 16;
constexpr int kTileDepth = 32;  // the bfloat16 values one tile product sums over
constexpr int kTileBytes = 64;
constexpr int kTileValues = kTileRows * kTileBytes / 2;  // bfloat16 values in one tile
// Keys per softmax step, a multiple of 32 (one probability tile is 16 queries by 32 keys): 16 KB of scores.
constexpr int kStepKeys = 256;
constexpr int kMaxDepthTiles = kBf16AttentionMaxHeadDim / kTileDepth;
constexpr int kMaxWidth = kBf16AttentionMaxHeadDim;  // float32 output values per query row

// Tile registers. GCC's tile intrinsics paste the register number into their assembly, so these are macros that
// expand to a literal.
#define SAM3N_SCORE_TILE 0
#define SAM3N_QUERY_TILE_LOW 1   // the queries' dimensions 0-31
#define SAM3N_QUERY_TILE_HIGH 2  // and 32-63
#define SAM3N_KEY_TILE 3
#define SAM3N_PROBABILITY_TILE 4
#define SAM3N_VALUE_TILE 5
#define SAM3N_OUTPUT_TILE 6
constexpr int kTilesUsed = 7;

/**
 * GCC's tileloadd does not tell the compiler that it reads memory: called before tiles are loaded from what plain
 * stores just wrote, so that those stores are not moved past the loads.
 */
inline void stores_before_tile_loads() { asm volatile("" ::: "memory"); }

/** The 64-byte operand of ldtilecfg (palette 1). */
struct alignas(64) TileConfig {
    uint8_t palette;
    uint8_t start_row;
    uint8_t reserved[14];
    uint16_t bytes_per_row[16];
    uint8_t rows[16];
};

/**
 * Configures the tiles this body uses for as long as it lives, and then puts back what the thread had: the caller's
 * thread takes part in the pool, and libtorch's oneDNN kernels on it may keep a tile configuration across calls
 * (their tile contents they reload on every call).
 */
class TileScope {
public:
    TileScope() {
        _tile_storeconfig(&saved_);
        TileConfig config{};
        config.palette = 1;
        for (int t = 0; t < kTilesUsed; ++t) {
            config.rows[t] = kTileRows;
            config.bytes_per_row[t] = kTileBytes;
        }
        _tile_loadconfig(&config);
    }
    ~TileScope() {
        if (saved_.palette != 0) {
            _tile_loadconfig(&saved_);
        } else {
            _tile_release();
        }
    }
    TileScope(const TileScope&) = delete;
    TileScope& operator=(const TileScope&) = delete;

private:
    TileConfig saved_{};
};

/** One thread's packed keys and values of the head it works on, and one block of 16 queries' working set. */
struct Scratch {
    Bf16Buffer keys;
    Bf16Buffer values;
    alignas(64) uint16_t queries[kTileRows][kMaxWidth];
    alignas(64) float scores[kTileRows][kStepKeys];
    alignas(64) uint16_t probabilities[kTileRows][kStepKeys];
    alignas(64) float products[kTileRows][kMaxWidth];
    alignas(64) float output[kTileRows][kMaxWidth];
};

/**
 * Keys of one head as the right operand of q·kᵀ: per block of 16 keys, per 32 dimensions, one tile whose row i
 * holds dimensions (2i, 2i+1) of the 16 keys. Keys and dimensions past the end are zero.
 */
void pack_keys(const uint16_t* k, int64_t ldk, int64_t tokens, int head_dim, int depth_tiles, Bf16Buffer& packed) {
    const int64_t blocks = (tokens + kTileRows - 1) / kTileRows;
    packed.assign(static_cast<size_t>(blocks * depth_tiles * kTileValues), 0);
    uint32_t* out = reinterpret_cast<uint32_t*>(packed.data());
    for (int64_t key = 0; key < tokens; ++key) {
        const uint16_t* row = k + key * ldk;
        uint32_t* block = out + (key / kTileRows) * depth_tiles * kTileValues / 2 + key % kTileRows;
        for (int pair = 0; pair < head_dim / 2; ++pair) {
            block[pair * kTileRows] = load_pair(row + 2 * pair);
        }
    }
}

/**
 * Values of one head as the right operand of p·v: per block of 32 keys, per 16 output dimensions, one tile whose
 * row i holds keys (2i, 2i+1) of the 16 dimensions. Keys and dimensions past the end are zero.
 */
void pack_values(const uint16_t* v, int64_t ldv, int64_t tokens, int head_dim, int vectors, Bf16Buffer& packed) {
    const int64_t blocks = (tokens + kTileDepth - 1) / kTileDepth;
    packed.assign(static_cast<size_t>(blocks * vectors * kTileValues), 0);
    for (int64_t key = 0; key < tokens; ++key) {
        const uint16_t* row = v + key * ldv;
        uint16_t* block = packed.data() + (key / kTileDepth) * vectors * kTileValues + (key % kTileDepth / 2) * 32 +
                          key % 2;
        for (int d = 0; d < head_dim; ++d) {
            block[(d / 16) * kTileValues + (d % 16) * 2] = row[d];
        }
    }
}

/** scores[r][0, 16·blocks) = q·kᵀ of the block's queries (in the query tiles) against 16·blocks keys. */
inline void score_step(const uint16_t* keys, int64_t blocks, int depth_tiles, Scratch& scratch) {
    stores_before_tile_loads();
    for (int64_t block = 0; block < blocks; ++block) {
        const uint16_t* tiles = keys + block * depth_tiles * kTileValues;
        _tile_zero(SAM3N_SCORE_TILE);
        _tile_loadd(SAM3N_KEY_TILE, tiles, kTileBytes);
        _tile_dpbf16ps(SAM3N_SCORE_TILE, SAM3N_QUERY_TILE_LOW, SAM3N_KEY_TILE);
        if (depth_tiles == 2) {
            _tile_loadd(SAM3N_KEY_TILE, tiles + kTileValues, kTileBytes);
            _tile_dpbf16ps(SAM3N_SCORE_TILE, SAM3N_QUERY_TILE_HIGH, SAM3N_KEY_TILE);
        }
        _tile_stored(SAM3N_SCORE_TILE, scratch.scores[0] + block * kTileRows, kStepKeys * sizeof(float));
    }
}

/**
 * One row's softmax step: the running maximum and sum move on, the probabilities (float32, rounded to bfloat16)
 * of the step's keys are written over `vectors` groups of 16 (keys past the end, and the groups past them up to a
 * whole probability tile, get 0). Returns the factor the row's earlier output is to be scaled by.
 */
inline float softmax_step(const float* score, uint16_t* probability, int64_t first_key, int64_t kv_tokens,
                          int64_t live_vectors, int64_t vectors, float scale_log2, float& row_max, float& row_sum) {
    const bool partial = first_key + vectors * 16 > kv_tokens;
    const __m512 minus_infinity = _mm512_set1_ps(-std::numeric_limits<float>::infinity());
    __m512 widest = minus_infinity;
    for (int64_t i = 0; i < live_vectors; ++i) {
        __m512 s = _mm512_load_ps(score + i * 16);
        if (partial) {
            s = _mm512_mask_blend_ps(live_lanes(first_key + i * 16, kv_tokens), minus_infinity, s);
        }
        widest = _mm512_max_ps(widest, s);
    }
    const float new_max = std::max(row_max, _mm512_reduce_max_ps(widest));
    // 2^-inf = 0 on the first step, where the output is still zero
    const float rescale = std::exp2((row_max - new_max) * scale_log2);
    const __m512 scale = _mm512_set1_ps(scale_log2);
    const __m512 shift = _mm512_set1_ps(new_max * scale_log2);
    __m512 sum = _mm512_setzero_ps();
    for (int64_t i = 0; i < vectors; ++i) {
        __m512 p = exp2_of_nonpositive(_mm512_fmsub_ps(_mm512_load_ps(score + i * 16), scale, shift));
        if (partial) {
            p = _mm512_maskz_mov_ps(live_lanes(first_key + i * 16, kv_tokens), p);
        }
        sum = _mm512_add_ps(sum, p);
        _mm256_store_si256(reinterpret_cast<__m256i*>(probability + i * 16),
                           reinterpret_cast<__m256i>(_mm512_cvtneps_pbh(p)));
    }
    row_sum = row_sum * rescale + _mm512_reduce_add_ps(sum);
    row_max = new_max;
    return rescale;
}

/** Up to 16 queries of one head against every key, flash-style over steps of kStepKeys keys. */
void attend_block(const uint16_t* q, int64_t ldq, int rows, int head_dim, int depth_tiles, int vectors,
                  int64_t kv_tokens, float scale_log2, Scratch& scratch, uint16_t* out, int64_t ldo) {
    std::memset(scratch.queries, 0, sizeof scratch.queries);
    for (int r = 0; r < rows; ++r) {
        std::memcpy(scratch.queries[r], q + r * ldq, static_cast<size_t>(head_dim) * sizeof(uint16_t));
    }
    stores_before_tile_loads();
    _tile_loadd(SAM3N_QUERY_TILE_LOW, scratch.queries[0], sizeof scratch.queries[0]);
    if (depth_tiles == 2) {
        _tile_loadd(SAM3N_QUERY_TILE_HIGH, scratch.queries[0] + kTileDepth, sizeof scratch.queries[0]);
    }
    std::memset(scratch.output, 0, sizeof scratch.output);
    float row_max[kTileRows];
    float row_sum[kTileRows];
    float rescale[kTileRows];
    std::fill_n(row_max, kTileRows, -std::numeric_limits<float>::infinity());
    std::fill_n(row_sum, kTileRows, 0.0f);
    for (int64_t step = 0; step < kv_tokens; step += kStepKeys) {
        const int64_t step_keys = std::min<int64_t>(kStepKeys, kv_tokens - step);
        const int64_t live_vectors = (step_keys + 15) / 16;
        const int64_t key_pairs_tiles = (step_keys + kTileDepth - 1) / kTileDepth;
        score_step(scratch.keys.data() + (step / kTileRows) * depth_tiles * kTileValues, live_vectors, depth_tiles,
                   scratch);
        // every row of the tile, padding rows too (their queries are zero): the probability tile reads them all
        for (int r = 0; r < kTileRows; ++r) {
            rescale[r] = softmax_step(scratch.scores[r], scratch.probabilities[r], step, kv_tokens, live_vectors,
                                      key_pairs_tiles * 2, scale_log2, row_max[r], row_sum[r]);
        }
        stores_before_tile_loads();
        const uint16_t* step_values = scratch.values.data() + (step / kTileDepth) * vectors * kTileValues;
        for (int e = 0; e < vectors; ++e) {
            _tile_zero(SAM3N_OUTPUT_TILE);
            for (int64_t j = 0; j < key_pairs_tiles; ++j) {
                _tile_loadd(SAM3N_PROBABILITY_TILE, scratch.probabilities[0] + j * kTileDepth, kStepKeys * sizeof(uint16_t));
                _tile_loadd(SAM3N_VALUE_TILE, step_values + (j * vectors + e) * kTileValues, kTileBytes);
                _tile_dpbf16ps(SAM3N_OUTPUT_TILE, SAM3N_PROBABILITY_TILE, SAM3N_VALUE_TILE);
            }
            _tile_stored(SAM3N_OUTPUT_TILE, scratch.products[0] + e * 16, sizeof scratch.products[0]);
        }
        for (int r = 0; r < kTileRows; ++r) {
            const __m512 factor = _mm512_set1_ps(rescale[r]);
            for (int e = 0; e < vectors; ++e) {
                float* o = scratch.output[r] + e * 16;
                _mm512_store_ps(o, _mm512_fmadd_ps(_mm512_load_ps(o), factor,
                                                   _mm512_load_ps(scratch.products[r] + e * 16)));
            }
        }
    }
    for (int r = 0; r < rows; ++r) {
        const __m512 inverse = _mm512_set1_ps(1.0f / row_sum[r]);
        for (int e = 0; e < vectors; ++e) {
            const int n = std::min(16, head_dim - e * 16);
            const __m256i narrow = reinterpret_cast<__m256i>(
                    _mm512_cvtneps_pbh(_mm512_mul_ps(_mm512_load_ps(scratch.output[r] + e * 16), inverse)));
            _mm256_mask_storeu_epi16(out + r * ldo + e * 16, static_cast<__mmask16>((1u << n) - 1u), narrow);
        }
    }
}

}  // namespace

void bf16_attention_amx(const uint16_t* q, const uint16_t* k, const uint16_t* v, uint16_t* out,
                        const Bf16AttentionShape& shape, float scale, ThreadPool& pool) {
    const int head_dim = shape.head_dim;
    const int depth_tiles = (head_dim + kTileDepth - 1) / kTileDepth;
    const int vectors = (head_dim + 15) / 16;
    const int64_t ld = shape.row_stride;
    const int64_t ldo = static_cast<int64_t>(shape.heads) * head_dim;
    const Bf16AttentionTasks tasks(shape, pool.size(), kTileRows);
    const float scale_log2 = scale * kLog2E;
    static_assert(kMaxDepthTiles == 2, "two query tiles hold the widest head");
    pool.parallel_for(tasks.count(), [&](int64_t index) {
        thread_local Scratch scratch;
        const auto [b, h, first, end] = tasks[index];
        pack_keys(k + b * shape.kv_tokens * ld + h * head_dim, ld, shape.kv_tokens, head_dim, depth_tiles,
                  scratch.keys);
        pack_values(v + b * shape.kv_tokens * ld + h * head_dim, ld, shape.kv_tokens, head_dim, vectors,
                    scratch.values);
        const uint16_t* qh = q + b * shape.q_tokens * ld + h * head_dim;
        uint16_t* oh = out + b * shape.q_tokens * ldo + h * head_dim;
        const TileScope tiles;
        for (int64_t row = first; row < end; row += kTileRows) {
            const int rows = static_cast<int>(std::min<int64_t>(kTileRows, end - row));
            attend_block(qh + row * ld, ld, rows, head_dim, depth_tiles, vectors, shape.kv_tokens, scale_log2,
                         scratch, oh + row * ldo, ldo);
        }
    });
}

}  // namespace sam3n::host
