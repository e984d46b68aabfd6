#include "tt_vit_trunk.hpp"

#include "ttnn/operations/data_movement/reshape_view/reshape.hpp"
#include "ttnn/operations/eltwise/binary/binary.hpp"
#include "ttnn/operations/transformer/concatenate_heads/concatenate_heads.hpp"
#include "ttnn/operations/transformer/split_query_key_value_and_split_heads/split_query_key_value_and_split_heads.hpp"

#include "../core/vit_geometry.hpp"
#include "../core/weight_names.hpp"

namespace sam3n::tenstorrent {

namespace {

uint32_t u32(int64_t v) { return static_cast<uint32_t>(v); }

// SDPA chunk for a sequence: 288 as the upstream port uses for 576- and 5184-token attention, else the
// largest tile multiple dividing it.
uint32_t attention_chunk(int64_t tokens) {
    for (uint32_t chunk : {288u, 256u, 128u, 64u, 32u}) {
        if (tokens % chunk == 0) {
            return chunk;
        }
    }
    return 32;
}

::ttnn::Shape patch_shape(const VitConfig& c) {
    return ::ttnn::Shape({1, 1, u32(c.tokens()), u32(3 * c.patch_size * c.patch_size)});
}

}  // namespace

TtVitTrunk::TtVitTrunk(TtContext& ctx, const VitConfig& config, WeightStore& weights, bool fused, bool traced)
    : ctx_(ctx),
      config_(config),
      fused_(fused),
      grid_index_(window_major_grid_index(config)),
      patch_embed_(TtLinear::take(ctx, weights, names::trunk("patch_embed.proj."), false)),
      pos_(ctx.upload(tiled_position_embedding(config, grid_index_, weights.take(names::trunk("pos_embed")).values),
                      ::ttnn::Shape({1, 1, u32(config.tokens()), u32(config.embed_dim)}),
                      ::ttnn::DataType::BFLOAT16)),
      ln_pre_(TtLayerNorm::take(ctx, weights, names::trunk("ln_pre."))),
      window_rope_(ctx, window_rope_angles(config), config.head_dim()),
      global_rope_(ctx, global_rope_angles(config, grid_index_), config.head_dim()) {
    for (int b = 0; b <= config.last_global_block(); ++b) {
        blocks_.push_back(Block{config.is_global(b),
                                TtLayerNorm::take(ctx, weights, names::trunk_block(b, "norm1.")),
                                TtLinear::take(ctx, weights, names::trunk_block(b, "attn.qkv."), true),
                                TtLinear::take(ctx, weights, names::trunk_block(b, "attn.proj."), true),
                                TtLayerNorm::take(ctx, weights, names::trunk_block(b, "norm2.")),
                                TtLinear::take(ctx, weights, names::trunk_block(b, "mlp.fc1."), true),
                                TtLinear::take(ctx, weights, names::trunk_block(b, "mlp.fc2."), true)});
    }
    graph_ = std::make_unique<TracedGraph>(
        ctx, std::vector<Tensor>{ctx.allocate(patch_shape(config), ::ttnn::DataType::BFLOAT16)},
        [this](const std::vector<Tensor>& in) { return forward(in[0]); }, traced);
}

Tensor TtVitTrunk::forward(const Tensor& patches) const {
    Tensor x = ::ttnn::add(patch_embed_(ctx_, patches), pos_);
    x = ln_pre_(ctx_, x);
    for (const Block& b : blocks_) {
        x = block(b, x);
    }
    return x;
}

// x += proj(attn(LN1(x))); x += fc2(GELU(fc1(LN2(x)))) (upstream Block.forward).
Tensor TtVitTrunk::block(const Block& b, const Tensor& x) const {
    const int64_t t = config_.tokens();
    const int64_t c = config_.embed_dim;
    const int64_t sequences = b.global ? 1 : int64_t{config_.windows_per_side()} * config_.windows_per_side();
    const int64_t length = t / sequences;
    Tensor qkv = b.qkv(ctx_, b.norm1(ctx_, x), TtActivation::none, fused_);
    qkv = ::ttnn::reshape(qkv, ::ttnn::Shape({u32(sequences), u32(length), u32(3 * c)}));
    auto [q, k, v] = ::ttnn::transformer::split_query_key_value_and_split_heads(
        qkv, std::nullopt, u32(config_.num_heads), std::nullopt, /*transpose_key=*/false, ctx_.dram());
    const TtAxialRope& rope = b.global ? global_rope_ : window_rope_;
    Tensor attended = flash_attention(ctx_, rope(ctx_, q), rope(ctx_, k), v, config_.head_dim(),
                                      attention_chunk(length));
    attended = ::ttnn::transformer::concatenate_heads(attended, ctx_.dram());
    attended = ::ttnn::reshape(attended, ::ttnn::Shape({1, 1, u32(t), u32(c)}));
    Tensor y = b.proj.add_to(ctx_, x, attended, fused_);
    Tensor hidden = b.fc1(ctx_, b.norm2(ctx_, y), TtActivation::gelu, fused_);
    return b.fc2.add_to(ctx_, y, hidden, fused_);
}

void TtVitTrunk::run(const float* image, float* out) {
    const int64_t t = config_.tokens();
    const int64_t c = config_.embed_dim;
    const int64_t k = 3 * int64_t{config_.patch_size} * config_.patch_size;
    std::vector<float> patches(static_cast<std::size_t>(t * k));
    extract_patches(config_, grid_index_, image, 0, t, patches.data());
    Tensor host = ctx_.host_tensor(patches, patch_shape(config_), ::ttnn::DataType::BFLOAT16);
    std::vector<float> tokens = ctx_.read(graph_->run({host}));
    for (int64_t row = 0; row < t; ++row) {
        const int64_t cell = grid_index_[static_cast<std::size_t>(row)];
        for (int64_t ch = 0; ch < c; ++ch) {
            out[ch * t + cell] = tokens[static_cast<std::size_t>(row * c + ch)];
        }
    }
}

}  // namespace sam3n::tenstorrent
