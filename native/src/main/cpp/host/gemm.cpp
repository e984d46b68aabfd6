#include "gemm.hpp"

#include <algorithm>
#include <cstring>

#include "../core/error.hpp"

namespace sam3n::host {

namespace {

// Blocking for typical x86 caches: an mr x kKc A sliver plus a kKc x nr B sliver stay in L1 while the
// register tile runs, a kMcSlivers * mr x kKc block of A stays in L2 while every B sliver of the block's
// columns passes over it. kNc bounds the columns of one task so that large products split across threads.
constexpr int64_t kKc = 256;
constexpr int64_t kMcSlivers = 16;
constexpr int64_t kNc = 512;
// Largest register tile a kernel set may use (the edge-tile scratch below is this big).
constexpr int kMaxTile = 512;

struct Problem {
    const CpuKernels& kernels;
    int64_t m;
    const float* a;
    int64_t lda;
    const PackedB& b;
    float* c;
    int64_t ldc;
    const Epilogue& epilogue;
};

// Rows [m0, m1) of A, depth [p0, p0 + kc), into mr-row slivers: out[(s * kc + p) * mr + i], zero-padded.
void pack_a(const Problem& pr, int64_t m0, int64_t m1, int64_t p0, int64_t kc, float* out) {
    const int mr = pr.kernels.mr;
    for (int64_t r0 = m0; r0 < m1; r0 += mr) {
        for (int i = 0; i < mr; ++i) {
            int64_t row = r0 + i;
            float* dst = out + i;
            if (row < m1) {
                const float* src = pr.a + row * pr.lda + p0;
                for (int64_t p = 0; p < kc; ++p) {
                    dst[p * mr] = src[p];
                }
            } else {
                for (int64_t p = 0; p < kc; ++p) {
                    dst[p * mr] = 0.0f;
                }
            }
        }
        out += kc * mr;
    }
}

void apply_epilogue(const Problem& pr, int64_t m0, int64_t m1, int64_t n0, int64_t n1) {
    const Epilogue& e = pr.epilogue;
    if (e.bias == nullptr && e.activation == Activation::none) {
        return;
    }
    for (int64_t r = m0; r < m1; ++r) {
        float* row = pr.c + r * pr.ldc + n0;
        const int64_t width = n1 - n0;
        if (e.bias != nullptr) {
            for (int64_t j = 0; j < width; ++j) {
                row[j] += e.bias[n0 + j];
            }
        }
        if (e.activation == Activation::relu) {
            for (int64_t j = 0; j < width; ++j) {
                row[j] = row[j] > 0.0f ? row[j] : 0.0f;
            }
        } else if (e.activation == Activation::gelu) {
            pr.kernels.gelu(row, width);
        }
    }
}

// C[m0:m1, n0:n1] for the whole depth, then its epilogue.
void gemm_block(const Problem& pr, int64_t m0, int64_t m1, int64_t n0, int64_t n1) {
    const int mr = pr.kernels.mr;
    const int nr = pr.kernels.nr;
    const int64_t k = pr.b.k();
    thread_local AlignedFloats a_block;
    a_block.resize(static_cast<std::size_t>(kMcSlivers * mr * kKc));
    alignas(64) float edge[kMaxTile];
    for (int64_t p0 = 0; p0 < k; p0 += kKc) {
        const int64_t kc = std::min(kKc, k - p0);
        const bool accumulate = p0 > 0 || pr.epilogue.accumulate;
        pack_a(pr, m0, m1, p0, kc, a_block.data());
        for (int64_t col = n0; col < n1; col += nr) {
            const float* b_sliver = pr.b.sliver(col / nr) + p0 * nr;
            const int64_t cols = std::min<int64_t>(nr, n1 - col);
            for (int64_t row = m0; row < m1; row += mr) {
                const float* a_sliver = a_block.data() + (row - m0) / mr * kc * mr;
                const int64_t rows = std::min<int64_t>(mr, m1 - row);
                float* c_tile = pr.c + row * pr.ldc + col;
                if (rows == mr && cols == nr) {
                    pr.kernels.gemm_tile(kc, a_sliver, b_sliver, c_tile, pr.ldc, accumulate);
                    continue;
                }
                pr.kernels.gemm_tile(kc, a_sliver, b_sliver, edge, nr, false);
                for (int64_t i = 0; i < rows; ++i) {
                    for (int64_t j = 0; j < cols; ++j) {
                        float v = edge[i * nr + j];
                        c_tile[i * pr.ldc + j] = accumulate ? c_tile[i * pr.ldc + j] + v : v;
                    }
                }
            }
        }
    }
    apply_epilogue(pr, m0, m1, n0, n1);
}

}  // namespace

void PackedB::reset(int64_t k, int64_t n, int nr) {
    k_ = k;
    n_ = n;
    nr_ = nr;
    const int64_t slivers = (n + nr - 1) / nr;
    data_.assign(static_cast<std::size_t>(slivers * k * nr), 0.0f);
}

void PackedB::pack_transposed(const float* w, int64_t n, int64_t k, int64_t ld, int nr) {
    reset(k, n, nr);
    for (int64_t col = 0; col < n; ++col) {
        float* dst = data_.data() + (col / nr) * k * nr + col % nr;
        const float* src = w + col * ld;
        for (int64_t p = 0; p < k; ++p) {
            dst[p * nr] = src[p];
        }
    }
}

void PackedB::pack(const float* b, int64_t k, int64_t n, int64_t ld, int nr) {
    reset(k, n, nr);
    for (int64_t p = 0; p < k; ++p) {
        const float* src = b + p * ld;
        for (int64_t col = 0; col < n; ++col) {
            data_[static_cast<std::size_t>((col / nr) * k * nr + p * nr + col % nr)] = src[col];
        }
    }
}

void gemm(const CpuKernels& kernels, int64_t m, const float* a, int64_t lda, const PackedB& b, float* c, int64_t ldc,
          const Epilogue& epilogue, ThreadPool* pool) {
    if (b.nr() != kernels.nr || b.k() <= 0 || kernels.mr * kernels.nr > kMaxTile) {
        fail(SAM3N_INTERNAL, "gemm: operand packed for " + std::to_string(b.nr()) + " columns, kernels use " +
                                 std::to_string(kernels.nr));
    }
    if (epilogue.accumulate && epilogue.activation != Activation::none) {
        fail(SAM3N_INTERNAL, "gemm: an activation cannot follow an accumulating product");
    }
    if (m <= 0 || b.n() <= 0) {
        return;
    }
    const Problem pr{kernels, m, a, lda, b, c, ldc, epilogue};
    const int64_t mc = kMcSlivers * kernels.mr;
    const int64_t nc = kNc / kernels.nr * kernels.nr;
    const int64_t row_blocks = (m + mc - 1) / mc;
    const int64_t col_blocks = (b.n() + nc - 1) / nc;
    auto block = [&](int64_t index) {
        const int64_t m0 = index / col_blocks * mc;
        const int64_t n0 = index % col_blocks * nc;
        gemm_block(pr, m0, std::min(m, m0 + mc), n0, std::min(b.n(), n0 + nc));
    };
    if (pool == nullptr) {
        for (int64_t i = 0; i < row_blocks * col_blocks; ++i) {
            block(i);
        }
    } else {
        pool->parallel_for(row_blocks * col_blocks, block);
    }
}

}  // namespace sam3n::host
