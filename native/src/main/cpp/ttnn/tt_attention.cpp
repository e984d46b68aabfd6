#include "tt_attention.hpp"

#include <cmath>

#include "ttnn/operations/data_movement/permute/permute.hpp"
#include "ttnn/operations/data_movement/reshape_view/reshape.hpp"
#include "ttnn/operations/eltwise/binary/binary.hpp"
#include "ttnn/operations/matmul/matmul.hpp"
#include "ttnn/operations/normalization/softmax/softmax.hpp"
#include "ttnn/operations/transformer/sdpa/sdpa.hpp"

namespace sam3n::tenstorrent {

Tensor split_heads(const TtContext& ctx, const Tensor& x, uint32_t heads) {
    const ::ttnn::Shape& s = x.logical_shape();
    const uint32_t batch = s[0];
    const uint32_t tokens = s[1];
    const uint32_t width = s[2];
    Tensor grouped = ::ttnn::reshape(x, ::ttnn::Shape({batch, tokens, heads, width / heads}));
    return ::ttnn::permute(grouped, ::ttsl::SmallVector<int64_t>{0, 2, 1, 3}, ctx.dram());
}

Tensor merge_heads(const TtContext& ctx, const Tensor& x) {
    const ::ttnn::Shape& s = x.logical_shape();
    Tensor tokens_first = ::ttnn::permute(x, ::ttsl::SmallVector<int64_t>{0, 2, 1, 3}, ctx.dram());
    return ::ttnn::reshape(tokens_first, ::ttnn::Shape({s[0], s[2], s[1] * s[3]}));
}

TtAxialRope::TtAxialRope(TtContext& ctx, const std::vector<float>& angles, int head_dim) {
    const std::size_t pairs = static_cast<std::size_t>(head_dim / 2);
    const std::size_t tokens = angles.size() / pairs;
    std::vector<float> c(tokens * static_cast<std::size_t>(head_dim));
    std::vector<float> s(c.size());
    for (std::size_t t = 0; t < tokens; ++t) {
        for (std::size_t j = 0; j < pairs; ++j) {
            const double angle = angles[t * pairs + j];
            c[t * 2 * pairs + 2 * j] = c[t * 2 * pairs + 2 * j + 1] = static_cast<float>(std::cos(angle));
            s[t * 2 * pairs + 2 * j] = s[t * 2 * pairs + 2 * j + 1] = static_cast<float>(std::sin(angle));
        }
    }
    std::vector<float> r(static_cast<std::size_t>(head_dim * head_dim), 0.0f);
    for (int j = 0; j < head_dim; j += 2) {
        r[static_cast<std::size_t>(j * head_dim + j + 1)] = 1.0f;   // a -> second slot
        r[static_cast<std::size_t>((j + 1) * head_dim + j)] = -1.0f;  // -b -> first slot
    }
    const auto n = static_cast<uint32_t>(tokens);
    const auto d = static_cast<uint32_t>(head_dim);
    cos_ = ctx.upload(c, ::ttnn::Shape({1, 1, n, d}), ::ttnn::DataType::BFLOAT16);
    sin_ = ctx.upload(s, ::ttnn::Shape({1, 1, n, d}), ::ttnn::DataType::BFLOAT16);
    rotation_ = ctx.upload(r, ::ttnn::Shape({d, d}), ::ttnn::DataType::BFLOAT16);
}

Tensor TtAxialRope::operator()(const TtContext& ctx, const Tensor& x) const {
    Tensor turned = ::ttnn::matmul(x, rotation_, false, false, ctx.dram(), ::ttnn::DataType::BFLOAT16,
                                   std::nullopt, std::nullopt, ctx.matmul_config());
    return ::ttnn::add(::ttnn::multiply(x, cos_), ::ttnn::multiply(turned, sin_));
}

Tensor flash_attention(const TtContext& ctx, const Tensor& q, const Tensor& k, const Tensor& v, int head_dim,
                       uint32_t chunk) {
    ::ttnn::operations::transformer::SDPAProgramConfig program;
    program.compute_with_storage_grid_size = ctx.grid();
    program.q_chunk_size = chunk;
    program.k_chunk_size = chunk;
    program.exp_approx_mode = true;
    const float scale = 1.0f / std::sqrt(static_cast<float>(head_dim));
    return ::ttnn::transformer::scaled_dot_product_attention(q, k, v, /*attn_mask=*/std::nullopt,
                                                             /*is_causal=*/false, scale,
                                                             /*sliding_window_size=*/std::nullopt, ctx.dram(), program,
                                                             ctx.matmul_config());
}

Tensor masked_attention(const TtContext& ctx, const Tensor& q, const Tensor& k, const Tensor& v, const Tensor& bias) {
    Tensor scores = ::ttnn::matmul(q, k, /*transpose_a=*/false, /*transpose_b=*/true, ctx.dram(),
                                   ::ttnn::DataType::BFLOAT16, std::nullopt, std::nullopt, ctx.matmul_config());
    Tensor probabilities = ::ttnn::softmax(::ttnn::add(scores, bias), -1, ctx.dram(), ctx.precise_config(),
                                           /*numeric_stable=*/true);
    return ::ttnn::matmul(probabilities, v, false, false, ctx.dram(), ::ttnn::DataType::BFLOAT16, std::nullopt,
                          std::nullopt, ctx.matmul_config());
}

}  // namespace sam3n::tenstorrent
