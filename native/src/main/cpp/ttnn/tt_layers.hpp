// nn.Linear and nn.LayerNorm with their parameters resident on the card: weights as bfloat8_b, biases and norm
// parameters as bfloat16, activations bfloat16 (the upstream tt-metal SAM3 port's precision).
#pragma once

#include <optional>
#include <string>

#include "../core/weight_store.hpp"
#include "tt_context.hpp"

namespace sam3n::tenstorrent {

enum class TtActivation { none, gelu, relu };

class TtLinear {
public:
    /**
     * Rows [first, first + count) of a (out x in) weight and its bias, scaled by `scale` (used to fold
     * nn.MultiheadAttention's 1/sqrt(head_dim) query scaling into the query projection, which is exact).
     */
    static TtLinear upload(TtContext& ctx, const HostWeight& weight, const HostWeight* bias, int64_t first,
                           int64_t count, float scale = 1.0f);

    /** Takes prefix + "weight" and, if with_bias, prefix + "bias". */
    static TtLinear take(TtContext& ctx, WeightStore& weights, const std::string& prefix, bool with_bias);

    /** x W^T + b, then the activation inside the matmul's epilogue; `fused` runs the minimal_matmul kernel. */
    Tensor operator()(const TtContext& ctx, const Tensor& x, TtActivation activation = TtActivation::none,
                      bool fused = false) const;

    /** residual + x W^T + b: the fused path folds the add into the matmul's epilogue. */
    Tensor add_to(const TtContext& ctx, const Tensor& residual, const Tensor& x, bool fused) const;

private:
    Tensor weight_;  // (in, out): ttnn multiplies x (.., in) by it directly
    std::optional<Tensor> bias_;
    Tensor ones_;  // (1, out): the unit gate of the fused residual epilogue
};

class TtLayerNorm {
public:
    /** Takes prefix + "weight" and prefix + "bias". eps 1e-5. */
    static TtLayerNorm take(TtContext& ctx, WeightStore& weights, const std::string& prefix);

    Tensor operator()(const TtContext& ctx, const Tensor& x) const;

private:
    Tensor gamma_;
    Tensor beta_;
};

}  // namespace sam3n::tenstorrent
