// Vector helpers shared by the AVX-512 bodies of bf16_attention (bf16_attention_avx512.cpp and
// bf16_attention_amx.cpp): only translation units compiled for AVX-512 with bfloat16 instructions include it.
#pragma once

#include <immintrin.h>

#include <algorithm>
#include <cstdint>

namespace sam3n::host::bf16_attention_math {

/**
 * 2^x for x ≤ 0 (a value a hair above 0 from rounding is fine): x = n + f with n an integer and |f| ≤ 1/2, 2^f by a
 * cubic, then scaled by 2^n, which flushes to 0 below the smallest float. The cubic is the one of least relative
 * error on that range with 2^0 = 1 exactly (the largest score's weight stays 1): below 2.4e-4, an eighth of the
 * rounding every probability gets next (2^-9), which is all the accuracy a bfloat16 probability can carry; a
 * degree more costs an FMA per score, and the softmax is most of the kernel's work between AMX tile products.
 * x = -inf (a key past the end) gives NaN: callers mask those lanes.
 */
inline __m512 exp2_of_nonpositive(__m512 x) {
    const __m512 n = _mm512_roundscale_ps(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    const __m512 f = _mm512_sub_ps(x, n);
    __m512 p = _mm512_set1_ps(5.44967540e-2f);
    p = _mm512_fmadd_ps(p, f, _mm512_set1_ps(2.41970600e-1f));
    p = _mm512_fmadd_ps(p, f, _mm512_set1_ps(6.93147540e-1f));
    p = _mm512_fmadd_ps(p, f, _mm512_set1_ps(1.0f));
    return _mm512_scalef_ps(p, n);
}

/** The 16-lane groups of a block whose keys exist: all 16 but past the last key. */
inline __mmask16 live_lanes(int64_t first_key, int64_t kv_tokens) {
    const int64_t n = std::clamp<int64_t>(kv_tokens - first_key, 0, 16);
    return static_cast<__mmask16>((1u << n) - 1u);
}

inline __m512bh as_bf16(__m512i bits) { return reinterpret_cast<__m512bh>(bits); }

}  // namespace sam3n::host::bf16_attention_math
