// The AMX body of bf16_attention (bf16_attention.hpp): both products on bfloat16 tiles, the online softmax between
// them in AVX-512. This file alone is compiled for AMX; bf16_attention.cpp checks the CPU, and that Linux lets this
// process use the tile registers, before calling into it.
//
// Layout: a block of 16 queries is the 16 columns of every tile, so the scores come out transposed, one key per row
// and one query per lane (sᵀ = k·qᵀ), and the output is accumulated transposed too (oᵀ += vᵀ·pᵀ). Every softmax
// statistic of the block (running maximum, sum, rescale factor) is then one vector with a lane per query: no
// horizontal reduction and no scalar exponential anywhere, and the keys are the left operand of q·kᵀ in their own
// row layout (copied once per head, zero-padded to whole tiles).
//
// Why not libtorch's fused attention, which also multiplies on AMX tiles: with heads of 32 its time goes mostly into
// its softmax at AVX2 width; this body took 0.53× its time at the fusion encoder's shape and 0.67× at the ViT's
// global one on a Xeon with AMX (docs/PERFORMANCE.md, "Attention on AMX tiles").
#include <immintrin.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <vector>

#include "bf16_attention_bodies.hpp"
#include "bf16_attention_vector_math.hpp"

namespace sam3n::host {

namespace {

using namespace bf16_attention_math;

// A tile holds 16 rows of 64 bytes: 16 rows of 32 bfloat16 values, or of 16 float32.
constexpr int kTileRows = 16;                            // queries per block; keys per score tile
constexpr int kTileDepth = 32;                           // bfloat16 values one tile product sums over
constexpr int kTileBytes = 64;
constexpr int kTileValues = kTileRows * kTileBytes / 2;  // bfloat16 values in one tile
// Keys per softmax step, a multiple of 64 (a group of four score tiles): 16 KB of scores.
constexpr int kStepKeys = 256;
constexpr int kMaxWidth = kBf16AttentionMaxHeadDim;

// Tile registers, named by role. GCC's tile intrinsics paste the register number into their assembly, so these
// are macros that expand to a literal. While the scores are computed: the queries in 1 (and 2 for dimensions
// 32-63), keys alternating between 3 and 7, four score tiles 0, 4, 5, 6. While the values are weighted: the output
// in 0, 4, 5, 6 (16 dimensions each), probabilities alternating between 3 and 7, values alternating between 1 and
// 2 (the queries are loaded again for the next step). Alternating lets a load proceed while the product before it
// still reads the other register.
#define SAM3N_QUERIES_LOW 1
#define SAM3N_QUERIES_HIGH 2
#define SAM3N_EVEN 3
#define SAM3N_ODD 7
constexpr int kTilesUsed = 8;

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
 * Configures the tiles for as long as it lives, and then puts back what the thread had: the caller's thread takes
 * part in the pool, and libtorch's oneDNN kernels on it may keep a tile configuration across calls (their tile
 * contents they reload on every call).
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
    Bf16Buffer keys;    // (keys rounded up to a step group, width): the head's keys as rows, zero-padded
    Bf16Buffer values;  // per 32 keys, per 16 output dimensions, a 16 × 32 tile of vᵀ
    alignas(64) uint16_t queries[kMaxWidth / 2][kTileRows][2];  // qᵀ in dimension pairs, per query
    alignas(64) float scores[kStepKeys][kTileRows];              // sᵀ of one step
    alignas(64) uint16_t probabilities[kStepKeys / 2][kTileRows][2];  // pᵀ in key pairs, per query
    alignas(64) float products[kMaxWidth][kTileRows];            // vᵀ·pᵀ of one step
    alignas(64) float output[kMaxWidth][kTileRows];              // oᵀ so far
};

/** Each key's width values (head_dim, zero-padded to whole tiles) as one row; rows past the end are zero. */
void pack_keys(const uint16_t* k, int64_t ldk, int64_t tokens, int head_dim, int width, Bf16Buffer& packed) {
    const int64_t rows = (tokens + kStepKeys - 1) / kStepKeys * kStepKeys;
    packed.assign(static_cast<size_t>(rows * width), 0);
    for (int64_t key = 0; key < tokens; ++key) {
        std::memcpy(packed.data() + key * width, k + key * ldk, static_cast<size_t>(head_dim) * sizeof(uint16_t));
    }
}

/**
 * vᵀ as the left operand of oᵀ += vᵀ·pᵀ: per block of 32 keys, per 16 output dimensions, a tile whose row i holds
 * dimension i of the 32 keys. Keys and dimensions past the end are zero.
 */
void pack_values(const uint16_t* v, int64_t ldv, int64_t tokens, int head_dim, int vectors, Bf16Buffer& packed) {
    const int64_t blocks = (tokens + kTileDepth - 1) / kTileDepth;
    packed.assign(static_cast<size_t>(blocks * vectors * kTileValues), 0);
    for (int64_t key = 0; key < tokens; ++key) {
        const uint16_t* row = v + key * ldv;
        uint16_t* column = packed.data() + (key / kTileDepth) * vectors * kTileValues + key % kTileDepth;
        for (int d = 0; d < head_dim; ++d) {
            column[d * kTileDepth] = row[d];
        }
    }
}

/** qᵀ of up to 16 queries as the right operand of sᵀ = k·qᵀ: row i holds dimensions (2i, 2i+1) of each query. */
void pack_queries(const uint16_t* q, int64_t ldq, int rows, int head_dim, Scratch& scratch) {
    std::memset(scratch.queries, 0, sizeof scratch.queries);
    for (int r = 0; r < rows; ++r) {
        for (int d = 0; d < head_dim; ++d) {
            scratch.queries[d / 2][r][d % 2] = q[r * ldq + d];
        }
    }
}

inline void load_queries(const Scratch& scratch, int depth_tiles) {
    _tile_loadd(SAM3N_QUERIES_LOW, scratch.queries[0], kTileBytes);
    if (depth_tiles == 2) {
        _tile_loadd(SAM3N_QUERIES_HIGH, scratch.queries[kTileRows], kTileBytes);
    }
}

/** Score tile C = keys [first, first + 16) against the block's queries, key rows loaded into K (and K2). */
#define SAM3N_SCORE_TILE(C, K, K2, first)                                                  \
    do {                                                                                   \
        const uint16_t* rows_ = keys + (first) * width;                                    \
        _tile_zero(C);                                                                     \
        _tile_loadd(K, rows_, width * sizeof(uint16_t));                                   \
        _tile_dpbf16ps(C, K, SAM3N_QUERIES_LOW);                                           \
        if (depth_tiles == 2) {                                                            \
            _tile_loadd(K2, rows_ + kTileDepth, width * sizeof(uint16_t));                 \
            _tile_dpbf16ps(C, K2, SAM3N_QUERIES_HIGH);                                     \
        }                                                                                  \
    } while (0)

/** sᵀ of the step's keys (groups of 64, the last group possibly past the end) into scratch.scores. */
inline void score_step(const uint16_t* keys, int64_t step_keys, int width, int depth_tiles, Scratch& scratch) {
    constexpr int64_t kRowBytes = kTileRows * sizeof(float);
    for (int64_t first = 0; first < step_keys; first += 4 * kTileRows) {
        SAM3N_SCORE_TILE(0, SAM3N_EVEN, SAM3N_ODD, first);
        SAM3N_SCORE_TILE(4, SAM3N_ODD, SAM3N_EVEN, first + kTileRows);
        SAM3N_SCORE_TILE(5, SAM3N_EVEN, SAM3N_ODD, first + 2 * kTileRows);
        SAM3N_SCORE_TILE(6, SAM3N_ODD, SAM3N_EVEN, first + 3 * kTileRows);
        _tile_stored(0, scratch.scores[first], kRowBytes);
        _tile_stored(4, scratch.scores[first + kTileRows], kRowBytes);
        _tile_stored(5, scratch.scores[first + 2 * kTileRows], kRowBytes);
        _tile_stored(6, scratch.scores[first + 3 * kTileRows], kRowBytes);
    }
}

#undef SAM3N_SCORE_TILE

/** Output tile O += the values' dimensions [16 e, 16 e + 16) of key block j, loaded into V, times probabilities P. */
#define SAM3N_WEIGHT_VALUES(O, V, P, e)                                                    \
    do {                                                                                   \
        if ((e) < vectors) {                                                               \
            _tile_loadd(V, block_values + (e) * kTileValues, kTileBytes);                  \
            _tile_dpbf16ps(O, V, P);                                                       \
        }                                                                                  \
    } while (0)

/** oᵀ of the step = vᵀ·pᵀ over its key blocks, into scratch.products. */
inline void weight_step(const uint16_t* values, int64_t key_blocks, int vectors, Scratch& scratch) {
    _tile_zero(0);
    _tile_zero(4);
    _tile_zero(5);
    _tile_zero(6);
    for (int64_t j = 0; j < key_blocks; ++j) {
        const uint16_t* block_values = values + j * vectors * kTileValues;
        const uint16_t* block_probabilities = scratch.probabilities[j * kTileRows][0];
        if (j % 2 == 0) {
            _tile_loadd(SAM3N_EVEN, block_probabilities, kTileBytes);
            SAM3N_WEIGHT_VALUES(0, SAM3N_QUERIES_LOW, SAM3N_EVEN, 0);
            SAM3N_WEIGHT_VALUES(4, SAM3N_QUERIES_HIGH, SAM3N_EVEN, 1);
            SAM3N_WEIGHT_VALUES(5, SAM3N_QUERIES_LOW, SAM3N_EVEN, 2);
            SAM3N_WEIGHT_VALUES(6, SAM3N_QUERIES_HIGH, SAM3N_EVEN, 3);
        } else {
            _tile_loadd(SAM3N_ODD, block_probabilities, kTileBytes);
            SAM3N_WEIGHT_VALUES(0, SAM3N_QUERIES_LOW, SAM3N_ODD, 0);
            SAM3N_WEIGHT_VALUES(4, SAM3N_QUERIES_HIGH, SAM3N_ODD, 1);
            SAM3N_WEIGHT_VALUES(5, SAM3N_QUERIES_LOW, SAM3N_ODD, 2);
            SAM3N_WEIGHT_VALUES(6, SAM3N_QUERIES_HIGH, SAM3N_ODD, 3);
        }
    }
    constexpr int64_t kRowBytes = kTileRows * sizeof(float);
    _tile_stored(0, scratch.products[0], kRowBytes);
    if (vectors > 1) {
        _tile_stored(4, scratch.products[16], kRowBytes);
    }
    if (vectors > 2) {
        _tile_stored(5, scratch.products[32], kRowBytes);
    }
    if (vectors > 3) {
        _tile_stored(6, scratch.products[48], kRowBytes);
    }
}

#undef SAM3N_WEIGHT_VALUES

/**
 * The step's softmax, a lane per query: the running maximum and sum move on, and the probabilities of its keys
 * (rounded to bfloat16) are written in key pairs, zero up to a whole tile past the last key. Returns the factor the
 * earlier output is to be scaled by.
 */
inline __m512 softmax_step(int64_t step_keys, __m512 scale, __m512& running_max, __m512& running_sum,
                           Scratch& scratch) {
    // four maxima side by side: one would wait for the previous vmaxps at every key
    __m512 widest[4] = {running_max, running_max, running_max, running_max};
    int64_t row = 0;
    for (; row + 4 <= step_keys; row += 4) {
        for (int i = 0; i < 4; ++i) {
            widest[i] = _mm512_max_ps(widest[i], _mm512_load_ps(scratch.scores[row + i]));
        }
    }
    for (; row < step_keys; ++row) {
        widest[0] = _mm512_max_ps(widest[0], _mm512_load_ps(scratch.scores[row]));
    }
    const __m512 new_max = _mm512_max_ps(_mm512_max_ps(widest[0], widest[1]), _mm512_max_ps(widest[2], widest[3]));
    // The running maximum starts at the lowest float, so the first step's factor is 2^(very negative) = 0. The
    // exponent is clamped where 2^x is 0 in float32 anyway, so that a scale above 1 cannot take it to -inf.
    const __m512 rescale = exp2_of_nonpositive(
            _mm512_max_ps(_mm512_mul_ps(_mm512_sub_ps(running_max, new_max), scale), _mm512_set1_ps(-256.0f)));
    const __m512 shift = _mm512_mul_ps(new_max, scale);
    // (key 2i of each query, key 2i + 1 of each query) → the two keys of each query side by side
    const __m512i interleave = _mm512_set_epi16(31, 15, 30, 14, 29, 13, 28, 12, 27, 11, 26, 10, 25, 9, 24, 8, 23, 7,
                                                22, 6, 21, 5, 20, 4, 19, 3, 18, 2, 17, 1, 16, 0);
    __m512 sum = _mm512_setzero_ps();
    const int64_t padded = (step_keys + kTileDepth - 1) / kTileDepth * kTileDepth;
    for (int64_t key = 0; key < padded; key += 2) {
        __m512 even = _mm512_setzero_ps();
        __m512 odd = _mm512_setzero_ps();
        if (key < step_keys) {
            even = exp2_of_nonpositive(_mm512_fmsub_ps(_mm512_load_ps(scratch.scores[key]), scale, shift));
        }
        if (key + 1 < step_keys) {
            odd = exp2_of_nonpositive(_mm512_fmsub_ps(_mm512_load_ps(scratch.scores[key + 1]), scale, shift));
        }
        sum = _mm512_add_ps(sum, _mm512_add_ps(even, odd));
        const __m512i pair = reinterpret_cast<__m512i>(_mm512_cvtne2ps_pbh(odd, even));
        _mm512_store_si512(scratch.probabilities[key / 2], _mm512_permutexvar_epi16(interleave, pair));
    }
    running_sum = _mm512_fmadd_ps(running_sum, rescale, sum);
    running_max = new_max;
    return rescale;
}

/** Up to 16 queries of one head against every key, flash-style over steps of kStepKeys keys. */
void attend_block(const uint16_t* q, int64_t ldq, int rows, int head_dim, int width, int vectors, int64_t kv_tokens,
                  float scale_log2, Scratch& scratch, uint16_t* out, int64_t ldo) {
    const int depth_tiles = width / kTileDepth;
    pack_queries(q, ldq, rows, head_dim, scratch);
    std::memset(scratch.output, 0, sizeof scratch.output);
    const __m512 scale = _mm512_set1_ps(scale_log2);
    __m512 running_max = _mm512_set1_ps(std::numeric_limits<float>::lowest());
    __m512 running_sum = _mm512_setzero_ps();
    // The values of a step are weighted after the next step's scores are computed: the tile loads of its
    // probabilities and the vector loads of the next scores then find the stores before them done.
    __m512 rescale = _mm512_setzero_ps();
    int64_t weighted_step = -1;
    auto weight = [&](int64_t step) {
        const int64_t step_keys = std::min<int64_t>(kStepKeys, kv_tokens - step);
        stores_before_tile_loads();
        weight_step(scratch.values.data() + (step / kTileDepth) * vectors * kTileValues,
                    (step_keys + kTileDepth - 1) / kTileDepth, vectors, scratch);
        for (int d = 0; d < vectors * 16; ++d) {
            _mm512_store_ps(scratch.output[d], _mm512_fmadd_ps(_mm512_load_ps(scratch.output[d]), rescale,
                                                               _mm512_load_ps(scratch.products[d])));
        }
    };
    for (int64_t step = 0; step < kv_tokens; step += kStepKeys) {
        const int64_t step_keys = std::min<int64_t>(kStepKeys, kv_tokens - step);
        stores_before_tile_loads();
        load_queries(scratch, depth_tiles);
        score_step(scratch.keys.data() + step * width, step_keys, width, depth_tiles, scratch);
        if (weighted_step >= 0) {
            weight(weighted_step);
        }
        rescale = softmax_step(step_keys, scale, running_max, running_sum, scratch);
        weighted_step = step;
    }
    weight(weighted_step);
    const __m512 inverse = _mm512_div_ps(_mm512_set1_ps(1.0f), running_sum);
    alignas(64) uint16_t narrow[kMaxWidth][kTileRows];
    for (int d = 0; d < head_dim; ++d) {
        _mm256_store_si256(reinterpret_cast<__m256i*>(narrow[d]),
                           reinterpret_cast<__m256i>(
                                   _mm512_cvtneps_pbh(_mm512_mul_ps(_mm512_load_ps(scratch.output[d]), inverse))));
    }
    for (int r = 0; r < rows; ++r) {
        for (int d = 0; d < head_dim; ++d) {
            out[r * ldo + d] = narrow[d][r];
        }
    }
}

}  // namespace

void bf16_attention_amx(const uint16_t* q, const uint16_t* k, const uint16_t* v, uint16_t* out,
                        const Bf16AttentionShape& shape, float scale, ThreadPool& pool) {
    const int head_dim = shape.head_dim;
    const int width = (head_dim + kTileDepth - 1) / kTileDepth * kTileDepth;
    const int vectors = (head_dim + 15) / 16;
    const int64_t ld = shape.row_stride;
    const int64_t ldo = static_cast<int64_t>(shape.heads) * head_dim;
    const Bf16AttentionTasks tasks(shape, pool.size(), kTileRows);
    const float scale_log2 = scale * kLog2E;
    static_assert(kMaxWidth == 2 * kTileDepth, "two query tiles and four output tiles hold the widest head");
    pool.parallel_for(tasks.count(), [&](int64_t index) {
        thread_local Scratch scratch;
        const auto [b, h, first, end] = tasks[index];
        pack_keys(k + b * shape.kv_tokens * ld + h * head_dim, ld, shape.kv_tokens, head_dim, width, scratch.keys);
        pack_values(v + b * shape.kv_tokens * ld + h * head_dim, ld, shape.kv_tokens, head_dim, vectors,
                    scratch.values);
        const uint16_t* qh = q + b * shape.q_tokens * ld + h * head_dim;
        uint16_t* oh = out + b * shape.q_tokens * ldo + h * head_dim;
        const TileScope tiles;
        for (int64_t row = first; row < end; row += kTileRows) {
            const int rows = static_cast<int>(std::min<int64_t>(kTileRows, end - row));
            attend_block(qh + row * ld, ld, rows, head_dim, width, vectors, shape.kv_tokens, scale_log2, scratch,
                         oh + row * ldo, ldo);
        }
    });
}

}  // namespace sam3n::host
