// The two bodies of bf16_attention (bf16_attention.hpp) and what they share: how one call is cut into tasks for
// the pool. bf16_attention.cpp picks the body; each body's file is compiled for the instructions it uses.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "aligned_buffer.hpp"
#include "bf16_attention.hpp"

namespace sam3n::host {

/** One task of an attention call: the query rows [first, end) of head h of batch entry b. */
struct Bf16AttentionTask {
    int64_t b;
    int64_t h;
    int64_t first;
    int64_t end;
};

/**
 * The tasks of one call. Every task packs the keys and values of its head, so a head's queries are split only when
 * there are fewer than two heads per thread, and never into fewer than min_rows rows.
 */
class Bf16AttentionTasks {
public:
    Bf16AttentionTasks(const Bf16AttentionShape& shape, int threads, int64_t min_rows)
        : shape_(shape) {
        const int64_t heads = shape.batch * shape.heads;
        const int64_t per_head = std::max<int64_t>(1, (2 * threads + heads - 1) / heads);
        chunk_ = std::max<int64_t>(min_rows, (shape.q_tokens + per_head - 1) / per_head);
        chunks_ = (shape.q_tokens + chunk_ - 1) / chunk_;
    }

    int64_t count() const { return shape_.batch * shape_.heads * chunks_; }

    Bf16AttentionTask operator[](int64_t task) const {
        const int64_t head = task / chunks_;
        const int64_t first = (task % chunks_) * chunk_;
        return {head / shape_.heads, head % shape_.heads, first, std::min(shape_.q_tokens, first + chunk_)};
    }

private:
    Bf16AttentionShape shape_;
    int64_t chunk_;
    int64_t chunks_;
};

/** A head's packed keys or values, each body in its own layout. */
using Bf16Buffer = std::vector<uint16_t, CacheLineAllocator<uint16_t>>;

/** Two adjacent bfloat16 values as one 32-bit word, the unit both bodies' products take. */
inline uint32_t load_pair(const uint16_t* p) {
    uint32_t pair;
    std::memcpy(&pair, p, sizeof pair);
    return pair;
}

/** exp(x) = 2^(x · log2 e): both bodies take their exponentials base 2. */
constexpr float kLog2E = 1.4426950408889634f;

/** The body for AVX512-BF16: dot products with vdpbf16ps, scores in registers. */
void bf16_attention_avx512(const uint16_t* q, const uint16_t* k, const uint16_t* v, uint16_t* out,
                           const Bf16AttentionShape& shape, float scale, ThreadPool& pool);

/** The body for AMX: both products on bfloat16 tiles, the softmax in AVX-512 between them. */
void bf16_attention_amx(const uint16_t* q, const uint16_t* k, const uint16_t* v, uint16_t* out,
                        const Bf16AttentionShape& shape, float scale, ThreadPool& pool);

}  // namespace sam3n::host
