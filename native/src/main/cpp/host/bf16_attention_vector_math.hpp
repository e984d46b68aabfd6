// Vector helpers shared by the AVX-512 bodies of bf16_attention (bf16_attention_avx512.cpp and
// bf16_attention_amx.cpp): only translation units compiled for AVX-512 with bfloat16 instructions include it.
#pragma once

#include <immintrin.h>

#include <algorithm>
#include <cstdint>

namespace sam3n::host::bf16_attention_math {

/**
 * 2^x for x ≤ 0 (a value a hair above 0 from rounding is fine): x = n + f with n an integer and |f| ≤ 1/2,
 * 2^f by its Taylor series to degree 5 (relative error below 3e-6 on that range, far under bfloat16's 4e-3), then
 * scaled by 2^n, which flushes to 0 below the smallest float. x = -inf (a key past the end) gives NaN: callers mask
 * those lanes.
 */
inline __m512 exp2_of_nonpositive(__m512 x) {
    const __m512 n = _mm512_roundscale_ps(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    const __m512 f = _mm512_sub_ps(x, n);
    __m512 p = _mm512_set1_ps(1.3333558146428443e-3f);  // ln2^5 / 5!
    p = _mm512_fmadd_ps(p, f, _mm512_set1_ps(9.6181291076284772e-3f));  // ln2^4 / 4!
    p = _mm512_fmadd_ps(p, f, _mm512_set1_ps(5.5504108664821580e-2f));  // ln2^3 / 3!
    p = _mm512_fmadd_ps(p, f, _mm512_set1_ps(2.4022650695910071e-1f));  // ln2^2 / 2!
    p = _mm512_fmadd_ps(p, f, _mm512_set1_ps(6.9314718055994531e-1f));  // ln2
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
