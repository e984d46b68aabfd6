// One instruction set's build of the CpuKernels (SAM3N_ISA = generic | avx2; the build passes the matching
// compiler flags). Written as plain C++ with GCC/Clang vector extensions so that one source serves every
// instruction set; no intrinsics.
#include <cmath>
#include <cstring>
#include <limits>

#include "cpu_kernels.hpp"

#ifndef SAM3N_ISA
#error "SAM3N_ISA must name the instruction set this file is compiled for"
#endif

#define SAM3N_CONCAT_(a, b) a##b
#define SAM3N_CONCAT(a, b) SAM3N_CONCAT_(a, b)
#define SAM3N_STRINGIFY_(a) #a
#define SAM3N_STRINGIFY(a) SAM3N_STRINGIFY_(a)

namespace sam3n::host {
namespace {

#if defined(__AVX__)
constexpr int kLanes = 8;
#else
constexpr int kLanes = 4;
#endif

// kLanes floats, readable at any float-aligned address (C tiles and rows are not vector-aligned) and allowed
// to alias the float arrays they are read from.
typedef float Vec __attribute__((vector_size(kLanes * sizeof(float)), aligned(sizeof(float)), may_alias));
typedef int32_t IVec __attribute__((vector_size(kLanes * sizeof(int32_t)), aligned(sizeof(int32_t)), may_alias));

// Register tile: kRows x (kVecs * kLanes). Two vectors per row and six rows keep 12 accumulators, two B
// vectors and one broadcast in the 16 registers both SSE2 and AVX2 have.
constexpr int kRows = 6;
constexpr int kVecs = 2;
constexpr int kCols = kVecs * kLanes;

inline Vec load(const float* p) { return *reinterpret_cast<const Vec*>(p); }

inline void store(float* p, Vec v) { *reinterpret_cast<Vec*>(p) = v; }

inline Vec splat(float x) {
    Vec v;
    for (int l = 0; l < kLanes; ++l) {
        v[l] = x;
    }
    return v;
}

void gemm_tile(int64_t kc, const float* a, const float* b, float* c, int64_t ldc, bool accumulate) {
    Vec acc[kRows][kVecs] = {};
    for (int64_t k = 0; k < kc; ++k) {
        Vec bv[kVecs];
#pragma GCC unroll 4
        for (int j = 0; j < kVecs; ++j) {
            bv[j] = load(b + k * kCols + j * kLanes);
        }
#pragma GCC unroll 8
        for (int i = 0; i < kRows; ++i) {
            const float av = a[k * kRows + i];
#pragma GCC unroll 4
            for (int j = 0; j < kVecs; ++j) {
                acc[i][j] += bv[j] * av;
            }
        }
    }
#pragma GCC unroll 8
    for (int i = 0; i < kRows; ++i) {
#pragma GCC unroll 4
        for (int j = 0; j < kVecs; ++j) {
            float* p = c + i * ldc + j * kLanes;
            store(p, accumulate ? load(p) + acc[i][j] : acc[i][j]);
        }
    }
}

inline Vec select(IVec mask, Vec if_true, Vec if_false) {
    IVec t, f;
    std::memcpy(&t, &if_true, sizeof t);
    std::memcpy(&f, &if_false, sizeof f);
    IVec r = (t & mask) | (f & ~mask);
    Vec out;
    std::memcpy(&out, &r, sizeof out);
    return out;
}

// e^x to about 1 ulp (Cephes expf: Cody-Waite reduction by ln 2, degree-5 polynomial); 0 below -87.3,
// where e^x leaves the normal range, which also makes e^-inf exactly 0.
inline Vec exp_vec(Vec x) {
    const float lo = -87.33654f;
    const float hi = 88.0f;
    IVec underflow = x < splat(lo);
    x = select(underflow, splat(lo), x);
    x = select(x > splat(hi), splat(hi), x);
    // Round x / ln 2 to nearest with the 1.5 * 2^23 trick: exact for |n| < 2^22, branch-free.
    const float magic = 12582912.0f;
    Vec n = (x * 1.44269504088896341f + magic) - magic;
    Vec r = x - n * 0.693359375f - n * -2.12194440e-4f;
    Vec r2 = r * r;
    Vec p = splat(1.9875691500e-4f);
    p = p * r + 1.3981999507e-3f;
    p = p * r + 8.3334519073e-3f;
    p = p * r + 4.1665795894e-2f;
    p = p * r + 1.6666665459e-1f;
    p = p * r + 5.0000001201e-1f;
    Vec y = p * r2 + r + 1.0f;
    IVec bits = (__builtin_convertvector(n, IVec) + 127) << 23;
    Vec scale;
    std::memcpy(&scale, &bits, sizeof scale);
    return select(underflow, splat(0.0f), y * scale);
}

float exp_scalar(float x) {
    float in[kLanes] = {x};
    float out[kLanes];
    store(out, exp_vec(load(in)));
    return out[0];
}

void softmax(float* x, int64_t n, float scale) {
    Vec lanes_max = splat(-std::numeric_limits<float>::infinity());
    int64_t i = 0;
    for (; i + kLanes <= n; i += kLanes) {
        Vec v = load(x + i);
        lanes_max = select(v > lanes_max, v, lanes_max);
    }
    float max = -std::numeric_limits<float>::infinity();
    for (int l = 0; l < kLanes; ++l) {
        max = lanes_max[l] > max ? lanes_max[l] : max;
    }
    for (; i < n; ++i) {
        max = x[i] > max ? x[i] : max;
    }
    Vec vmax = splat(max);
    Vec vsum = {};
    for (i = 0; i + kLanes <= n; i += kLanes) {
        Vec e = exp_vec((load(x + i) - vmax) * scale);
        store(x + i, e);
        vsum += e;
    }
    float sum = 0.0f;
    for (int l = 0; l < kLanes; ++l) {
        sum += vsum[l];
    }
    for (; i < n; ++i) {
        x[i] = exp_scalar((x[i] - max) * scale);
        sum += x[i];
    }
    float inv = 1.0f / sum;
    for (i = 0; i < n; ++i) {
        x[i] *= inv;
    }
}

// GELU through erfc: 1 + erf(z) = 2 - t q(t) e^{-z^2} for z >= 0 and t q(t) e^{-z^2} for z < 0, with
// t = 1 / (1 + p |z|) (Abramowitz & Stegun 7.1.26, |error| <= 1.5e-7; PyTorch's vectorised CPU erf uses
// the same formula). Computing 1 + erf directly avoids the cancellation 1 + erf(z) suffers for z << 0.
inline Vec gelu_vec(Vec x) {
    Vec z = x * 0.70710678118654752f;
    IVec negative = z < splat(0.0f);
    Vec az = select(negative, -z, z);
    Vec t = 1.0f / (1.0f + 0.3275911f * az);
    Vec q = splat(1.061405429f);
    q = q * t - 1.453152027f;
    q = q * t + 1.421413741f;
    q = q * t - 0.284496736f;
    q = q * t + 0.254829592f;
    Vec tail = t * q * exp_vec(-(z * z));
    Vec one_plus_erf = select(negative, tail, 2.0f - tail);
    return 0.5f * x * one_plus_erf;
}

void gelu(float* x, int64_t n) {
    int64_t i = 0;
    for (; i + kLanes <= n; i += kLanes) {
        store(x + i, gelu_vec(load(x + i)));
    }
    if (i < n) {
        float tail[kLanes] = {};
        std::memcpy(tail, x + i, static_cast<std::size_t>(n - i) * sizeof(float));
        store(tail, gelu_vec(load(tail)));
        std::memcpy(x + i, tail, static_cast<std::size_t>(n - i) * sizeof(float));
    }
}

}  // namespace

const CpuKernels& SAM3N_CONCAT(cpu_kernels_, SAM3N_ISA)() {
    static const CpuKernels kernels{SAM3N_STRINGIFY(SAM3N_ISA), kRows, kCols, gemm_tile, softmax, gelu};
    return kernels;
}

}  // namespace sam3n::host
