#include "bf16_attention.hpp"

#include "../core/error.hpp"

namespace sam3n::host {

#ifdef SAM3N_HAVE_AVX512_BF16
void bf16_attention_avx512(const uint16_t* q, const uint16_t* k, const uint16_t* v, uint16_t* out,
                           const Bf16AttentionShape& shape, float scale, ThreadPool& pool);
#endif

bool bf16_attention_available() {
#ifdef SAM3N_HAVE_AVX512_BF16
    static const bool available = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                                  __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bf16");
    return available;
#else
    return false;
#endif
}

void bf16_attention(const uint16_t* q, const uint16_t* k, const uint16_t* v, uint16_t* out,
                    const Bf16AttentionShape& shape, float scale, ThreadPool& pool) {
    if (!bf16_attention_available()) {
        fail(SAM3N_INVALID_STATE, "bfloat16 attention needs a CPU with AVX512-BF16");
    }
    if (shape.head_dim <= 0 || shape.head_dim % 2 != 0 || shape.head_dim > kBf16AttentionMaxHeadDim ||
        shape.heads <= 0 || shape.batch <= 0 || shape.q_tokens <= 0 || shape.kv_tokens <= 0 ||
        shape.row_stride < static_cast<int64_t>(shape.heads) * shape.head_dim) {
        fail(SAM3N_INVALID_ARGUMENT, "bfloat16 attention: unsupported shape");
    }
#ifdef SAM3N_HAVE_AVX512_BF16
    bf16_attention_avx512(q, k, v, out, shape, scale, pool);
#endif
}

}  // namespace sam3n::host
