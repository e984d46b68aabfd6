#include "bf16_attention.hpp"

#include "../core/error.hpp"
#include "bf16_attention_bodies.hpp"

#if defined(SAM3N_HAVE_AMX_BF16)
#include <cpuid.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace sam3n::host {

namespace {

#if defined(SAM3N_HAVE_AMX_BF16)
/**
 * AMX-TILE and AMX-BF16 in CPUID, and Linux's leave to use the tile registers: their 8 KB of state is saved on a
 * context switch only for processes that asked for it (arch_prctl ARCH_REQ_XCOMP_PERM, Linux 5.16 on). The request
 * is per process and idempotent; libtorch's oneDNN makes the same one.
 */
bool tiles_permitted() {
    unsigned eax = 0;
    unsigned ebx = 0;
    unsigned ecx = 0;
    unsigned edx = 0;
    if (__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx) == 0) {
        return false;
    }
    constexpr unsigned kAmxBf16 = 1u << 22;
    constexpr unsigned kAmxTile = 1u << 24;
    if ((edx & kAmxBf16) == 0 || (edx & kAmxTile) == 0) {
        return false;
    }
    constexpr long kArchRequestXcompPerm = 0x1023;
    constexpr long kXfeatureTileData = 18;
    return syscall(SYS_arch_prctl, kArchRequestXcompPerm, kXfeatureTileData) == 0;
}
#endif

}  // namespace

bool bf16_attention_available() {
#ifdef SAM3N_HAVE_AVX512_BF16
    static const bool available = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                                  __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bf16");
    return available;
#else
    return false;
#endif
}

bool bf16_attention_runs(Bf16AttentionBody body) {
    if (body == Bf16AttentionBody::kVectors) {
        return bf16_attention_available();
    }
#if defined(SAM3N_HAVE_AMX_BF16)
    static const bool tiles = bf16_attention_available() && tiles_permitted();
    return tiles;
#else
    return false;
#endif
}

Bf16AttentionBody bf16_attention_best_body() {
    return bf16_attention_runs(Bf16AttentionBody::kTiles) ? Bf16AttentionBody::kTiles : Bf16AttentionBody::kVectors;
}

void bf16_attention(const uint16_t* q, const uint16_t* k, const uint16_t* v, uint16_t* out,
                    const Bf16AttentionShape& shape, float scale, ThreadPool& pool, Bf16AttentionBody body) {
    if (!bf16_attention_runs(body)) {
        fail(SAM3N_INVALID_STATE, body == Bf16AttentionBody::kTiles
                                          ? "bfloat16 attention on tiles needs a CPU with AMX-BF16 and the OS's leave"
                                          : "bfloat16 attention needs a CPU with AVX512-BF16");
    }
    if (shape.head_dim <= 0 || shape.head_dim % 2 != 0 || shape.head_dim > kBf16AttentionMaxHeadDim ||
        shape.heads <= 0 || shape.batch <= 0 || shape.q_tokens <= 0 || shape.kv_tokens <= 0 ||
        shape.row_stride < static_cast<int64_t>(shape.heads) * shape.head_dim) {
        fail(SAM3N_INVALID_ARGUMENT, "bfloat16 attention: unsupported shape");
    }
#if defined(SAM3N_HAVE_AMX_BF16)
    if (body == Bf16AttentionBody::kTiles) {
        bf16_attention_amx(q, k, v, out, shape, scale, pool);
        return;
    }
#endif
#ifdef SAM3N_HAVE_AVX512_BF16
    bf16_attention_avx512(q, k, v, out, shape, scale, pool);
#endif
}

void bf16_attention(const uint16_t* q, const uint16_t* k, const uint16_t* v, uint16_t* out,
                    const Bf16AttentionShape& shape, float scale, ThreadPool& pool) {
    bf16_attention(q, k, v, out, shape, scale, pool, bf16_attention_best_body());
}

}  // namespace sam3n::host
