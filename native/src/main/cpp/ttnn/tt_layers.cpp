#include "tt_layers.hpp"

#include "ttnn/operations/eltwise/binary/binary.hpp"
#include "ttnn/operations/eltwise/unary/unary.hpp"
#include "ttnn/operations/experimental/minimal_matmul/minimal_matmul.hpp"
#include "ttnn/operations/experimental/transformer/dit_minimal_matmul_addcmul_fused/dit_minimal_matmul_addcmul_fused.hpp"
#include "ttnn/operations/matmul/matmul.hpp"
#include "ttnn/operations/normalization/layernorm/layernorm.hpp"

namespace sam3n::tenstorrent {

namespace {

constexpr float kLayerNormEps = 1e-5f;

uint32_t u32(int64_t v) { return static_cast<uint32_t>(v); }

// The epilogue activation of ttnn::linear, by name. GELU is not one: the name "gelu" selects ttnn's fast
// approximation in the tt-metal versions this targets, and upstream uses the exact (erf) form, so GELU runs as its
// own exact operator after the product (see TtLinear::operator()).
std::optional<std::string> epilogue_name(TtActivation activation) {
    return activation == TtActivation::relu ? std::optional<std::string>("relu") : std::nullopt;
}

std::optional<::ttnn::operations::unary::UnaryWithParam> unary(TtActivation activation) {
    using ::ttnn::operations::unary::UnaryOpType;
    switch (activation) {
        // param 0 = fast_and_approximate_mode off: the exact (erf) GELU, as upstream's nn.GELU()
        case TtActivation::gelu: return ::ttnn::operations::unary::UnaryWithParam(UnaryOpType::GELU, 0.0f);
        case TtActivation::relu: return ::ttnn::operations::unary::UnaryWithParam(UnaryOpType::RELU);
        case TtActivation::none: break;
    }
    return std::nullopt;
}

}  // namespace

TtLinear TtLinear::upload(TtContext& ctx, const HostWeight& weight, const HostWeight* bias, int64_t first,
                          int64_t count, float scale) {
    const int64_t in = static_cast<int64_t>(weight.values.size()) / weight.shape[0];
    std::vector<float> transposed(static_cast<std::size_t>(in * count));
    for (int64_t o = 0; o < count; ++o) {
        for (int64_t i = 0; i < in; ++i) {
            transposed[static_cast<std::size_t>(i * count + o)] =
                weight.values[static_cast<std::size_t>((first + o) * in + i)] * scale;
        }
    }
    TtLinear linear;
    linear.weight_ =
        ctx.upload(transposed, ::ttnn::Shape({u32(in), u32(count)}), ::ttnn::DataType::BFLOAT8_B);
    if (bias != nullptr) {
        std::vector<float> b(bias->values.begin() + first, bias->values.begin() + first + count);
        for (float& v : b) {
            v *= scale;
        }
        linear.bias_ = ctx.upload(b, ::ttnn::Shape({1, u32(count)}), ::ttnn::DataType::BFLOAT16);
    }
    linear.ones_ = ctx.upload(std::vector<float>(static_cast<std::size_t>(count), 1.0f),
                              ::ttnn::Shape({1, u32(count)}), ::ttnn::DataType::BFLOAT16);
    return linear;
}

TtLinear TtLinear::take(TtContext& ctx, WeightStore& weights, const std::string& prefix, bool with_bias) {
    HostWeight w = weights.take(prefix + "weight");
    if (!with_bias) {
        return upload(ctx, w, nullptr, 0, w.shape[0]);
    }
    HostWeight b = weights.take(prefix + "bias");
    return upload(ctx, w, &b, 0, w.shape[0]);
}

Tensor TtLinear::operator()(const TtContext& ctx, const Tensor& x, TtActivation activation, bool fused) const {
    if (fused) {
        return ::ttnn::experimental::minimal_matmul(x, weight_, bias_, unary(activation), /*config=*/std::nullopt,
                                                    ctx.dram(), ::ttnn::DataType::BFLOAT16, ctx.matmul_config());
    }
    Tensor product = ::ttnn::linear(x, weight_, bias_, /*transpose_a=*/false, /*transpose_b=*/false, ctx.dram(),
                                    ::ttnn::DataType::BFLOAT16, /*program_config=*/std::nullopt,
                                    epilogue_name(activation), ctx.matmul_config());
    if (activation == TtActivation::gelu) {
        return ::ttnn::gelu(product, /*fast_and_approximate_mode=*/false, ctx.dram());
    }
    return product;
}

Tensor TtLinear::add_to(const TtContext& ctx, const Tensor& residual, const Tensor& x, bool fused) const {
    if (fused) {
        // residual + 1 * (x W + b) * ones: the DiT "addcmul" epilogue with a unit gate, one kernel instead of
        // a matmul and an add (the seed's TT_FUSED proj/fc2 path).
        return ::ttnn::experimental::dit_minimal_matmul_addcmul_fused(
            x, weight_, 1.0f, residual, ones_, bias_, /*config=*/std::nullopt, ctx.dram(),
            ::ttnn::DataType::BFLOAT16, ctx.matmul_config());
    }
    return ::ttnn::add(residual, (*this)(ctx, x), ::ttnn::DataType::BFLOAT16, ctx.dram());
}

TtLayerNorm TtLayerNorm::take(TtContext& ctx, WeightStore& weights, const std::string& prefix) {
    // ttnn's layer_norm reads gamma and beta as row-major (1, 1, C / 32, 32) tensors.
    HostWeight gamma = weights.take(prefix + "weight");
    HostWeight beta = weights.take(prefix + "bias");
    const auto rows = static_cast<uint32_t>(gamma.values.size() / 32);
    TtLayerNorm ln;
    ln.gamma_ = ctx.upload(gamma.values, ::ttnn::Shape({1, 1, rows, 32}), ::ttnn::DataType::BFLOAT16,
                           ::ttnn::Layout::ROW_MAJOR);
    ln.beta_ = ctx.upload(beta.values, ::ttnn::Shape({1, 1, rows, 32}), ::ttnn::DataType::BFLOAT16,
                          ::ttnn::Layout::ROW_MAJOR);
    return ln;
}

Tensor TtLayerNorm::operator()(const TtContext& ctx, const Tensor& x) const {
    return ::ttnn::layer_norm(x, kLayerNormEps, gamma_, beta_, /*residual_input_tensor=*/std::nullopt, ctx.dram(),
                              /*program_config=*/std::nullopt, ctx.precise_config());
}

}  // namespace sam3n::tenstorrent
