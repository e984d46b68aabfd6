#include "tt_fusion_encoder.hpp"

#include <algorithm>
#include <cmath>

#include "ttnn/operations/eltwise/binary/binary.hpp"

#include "../core/weight_names.hpp"

namespace sam3n::tenstorrent {

namespace {

// Traces live in the trace region (SAM3_TRACE_REGION_SIZE); a handful of prompt shapes covers text prompts
// (33 tokens) and the box-prompt variants.
constexpr std::size_t kMaxGraphs = 4;
// Added to the attention logits of padded prompt tokens, so that their probability is 0.
constexpr float kPaddingBias = -1.0e9f;
// SDPA chunk of the self-attention over the image tokens (the upstream port's choice).
constexpr uint32_t kSelfAttentionChunk = 64;

uint32_t u32(int64_t v) { return static_cast<uint32_t>(v); }

int pad_to_tile(int n) { return (n + 31) / 32 * 32; }

}  // namespace

TtFusionEncoder::Layer TtFusionEncoder::take_layer(TtContext& ctx, WeightStore& weights, int index,
                                                   const EncoderConfig& config) {
    auto name = [&](const char* leaf) { return names::encoder_layer(index, leaf); };
    const int64_t d = config.d_model;
    HostWeight self_in = weights.take(name("self_attn.in_proj_weight"));
    HostWeight self_bias = weights.take(name("self_attn.in_proj_bias"));
    HostWeight cross_in = weights.take(name("cross_attn_image.in_proj_weight"));
    HostWeight cross_bias = weights.take(name("cross_attn_image.in_proj_bias"));
    // nn.MultiheadAttention scales the projected query by 1/sqrt(head_dim); folded into the cross-attention's
    // query weights here (the self-attention's SDPA kernel applies the scale itself).
    const float query_scale = 1.0f / std::sqrt(static_cast<float>(config.head_dim()));
    return Layer{TtLayerNorm::take(ctx, weights, name("norm1.")),
                 TtLinear::upload(ctx, self_in, &self_bias, 0, d),
                 TtLinear::upload(ctx, self_in, &self_bias, d, d),
                 TtLinear::upload(ctx, self_in, &self_bias, 2 * d, d),
                 TtLinear::take(ctx, weights, name("self_attn.out_proj."), true),
                 TtLayerNorm::take(ctx, weights, name("norm2.")),
                 TtLinear::upload(ctx, cross_in, &cross_bias, 0, d, query_scale),
                 TtLinear::upload(ctx, cross_in, &cross_bias, d, d),
                 TtLinear::upload(ctx, cross_in, &cross_bias, 2 * d, d),
                 TtLinear::take(ctx, weights, name("cross_attn_image.out_proj."), true),
                 TtLayerNorm::take(ctx, weights, name("norm3.")),
                 TtLinear::take(ctx, weights, name("linear1."), true),
                 TtLinear::take(ctx, weights, name("linear2."), true)};
}

TtFusionEncoder::TtFusionEncoder(TtContext& ctx, const EncoderConfig& config, WeightStore& weights, bool fused,
                                 bool traced)
    : ctx_(ctx), config_(config), fused_(fused), traced_(traced) {
    for (int l = 0; l < config.num_layers; ++l) {
        layers_.push_back(take_layer(ctx, weights, l, config));
    }
}

// Per layer (pre-norm): x += self_attn(q = k = LN1(x) + pos, v = LN1(x)); x += cross_attn(LN2(x), prompt);
// x += linear2(ReLU(linear1(LN3(x)))). No final norm.
Tensor TtFusionEncoder::forward(const Tensor& features, const Tensor& pos, const Tensor& prompt,
                                const Tensor& key_bias) const {
    const auto heads = u32(config_.num_heads);
    // The prompt's keys and values do not depend on the image: every layer's are made once, up front.
    std::vector<std::pair<Tensor, Tensor>> prompt_kv;
    for (const Layer& layer : layers_) {
        prompt_kv.emplace_back(split_heads(ctx_, layer.cross_k(ctx_, prompt), heads),
                               split_heads(ctx_, layer.cross_v(ctx_, prompt), heads));
    }
    Tensor x = features;
    for (std::size_t i = 0; i < layers_.size(); ++i) {
        const Layer& layer = layers_[i];
        Tensor normed = layer.norm1(ctx_, x);
        Tensor with_pos = ::ttnn::add(normed, pos);
        Tensor attended = flash_attention(ctx_, split_heads(ctx_, layer.self_q(ctx_, with_pos), heads),
                                          split_heads(ctx_, layer.self_k(ctx_, with_pos), heads),
                                          split_heads(ctx_, layer.self_v(ctx_, normed), heads), config_.head_dim(),
                                          kSelfAttentionChunk);
        x = layer.self_out.add_to(ctx_, x, merge_heads(ctx_, attended), fused_);

        Tensor query = split_heads(ctx_, layer.cross_q(ctx_, layer.norm2(ctx_, x)), heads);
        attended = masked_attention(ctx_, query, prompt_kv[i].first, prompt_kv[i].second, key_bias);
        x = layer.cross_out.add_to(ctx_, x, merge_heads(ctx_, attended), fused_);

        Tensor hidden = layer.linear1(ctx_, layer.norm3(ctx_, x), TtActivation::relu, fused_);
        x = layer.linear2.add_to(ctx_, x, hidden, fused_);
    }
    return x;
}

TracedGraph& TtFusionEncoder::graph_for(const ShapeKey& key) {
    auto hit = std::find_if(graphs_.begin(), graphs_.end(), [&](const auto& g) { return g.first == key; });
    if (hit != graphs_.end()) {
        graphs_.splice(graphs_.begin(), graphs_, hit);
        return *graphs_.front().second;
    }
    if (graphs_.size() == kMaxGraphs) {
        graphs_.pop_back();
    }
    const auto [batch, tokens, prompt_len] = key;
    const auto d = u32(config_.d_model);
    std::vector<Tensor> inputs{
        ctx_.allocate(::ttnn::Shape({u32(batch), u32(tokens), d}), ::ttnn::DataType::BFLOAT16),
        ctx_.allocate(::ttnn::Shape({1, u32(tokens), d}), ::ttnn::DataType::BFLOAT16),
        ctx_.allocate(::ttnn::Shape({u32(batch), u32(prompt_len), d}), ::ttnn::DataType::BFLOAT16),
        ctx_.allocate(::ttnn::Shape({u32(batch), 1, u32(tokens), u32(prompt_len)}), ::ttnn::DataType::BFLOAT16)};
    auto graph = std::make_unique<TracedGraph>(
        ctx_, std::move(inputs),
        [this](const std::vector<Tensor>& in) { return forward(in[0], in[1], in[2], in[3]); }, traced_ && fused_);
    graphs_.emplace_front(key, std::move(graph));
    return *graphs_.front().second;
}

void TtFusionEncoder::run(const EncoderBatch& in, float* memory) {
    const int d = config_.d_model;
    const int padded = pad_to_tile(in.prompt_len);
    const auto rows = static_cast<std::size_t>(in.tokens) * static_cast<std::size_t>(d);
    // Every prompt gets its own copy of a shared feature map; the prompt is padded to whole tiles with masked
    // zero tokens, so that all prompts of one length class share a graph.
    std::vector<float> features(static_cast<std::size_t>(in.batch) * rows);
    std::vector<float> prompt(static_cast<std::size_t>(in.batch) * static_cast<std::size_t>(padded * d), 0.0f);
    // The key bias is spelled out for every query row and broadcast only over the heads.
    const auto key_row = static_cast<std::size_t>(padded);
    std::vector<float> bias(static_cast<std::size_t>(in.batch) * static_cast<std::size_t>(in.tokens) * key_row,
                            kPaddingBias);
    for (int b = 0; b < in.batch; ++b) {
        const float* src = in.image_features + (in.feature_batch == 1 ? 0 : static_cast<std::size_t>(b) * rows);
        std::copy(src, src + rows, features.begin() + static_cast<std::ptrdiff_t>(b * rows));
        for (int p = 0; p < in.prompt_len; ++p) {
            const float* token = in.prompt + (static_cast<std::size_t>(b) * in.prompt_len + p) * d;
            std::copy(token, token + d,
                      prompt.begin() + static_cast<std::ptrdiff_t>((static_cast<std::size_t>(b) * padded + p) * d));
        }
        for (int q = 0; q < in.tokens; ++q) {
            float* row = bias.data() + (static_cast<std::size_t>(b) * in.tokens + q) * key_row;
            for (int p = 0; p < in.prompt_len; ++p) {
                if (in.prompt_mask[b * in.prompt_len + p] == 0) {
                    row[p] = 0.0f;
                }
            }
        }
    }
    std::vector<float> pos(in.pos, in.pos + rows);
    const auto batch = u32(in.batch);
    const auto tokens = u32(in.tokens);
    const auto width = u32(d);
    std::vector<Tensor> host{
        ctx_.host_tensor(features, ::ttnn::Shape({batch, tokens, width}), ::ttnn::DataType::BFLOAT16),
        ctx_.host_tensor(pos, ::ttnn::Shape({1, tokens, width}), ::ttnn::DataType::BFLOAT16),
        ctx_.host_tensor(prompt, ::ttnn::Shape({batch, u32(padded), width}), ::ttnn::DataType::BFLOAT16),
        ctx_.host_tensor(bias, ::ttnn::Shape({batch, 1, tokens, u32(padded)}), ::ttnn::DataType::BFLOAT16)};
    TracedGraph& graph = graph_for({in.batch, in.tokens, padded});
    std::vector<float> out = ctx_.read(graph.run(host));
    // a recording graph's first run compiles, captures and replays, so it counts as traced once captured
    ++(graph.captured() ? traced_runs_ : eager_runs_);
    std::copy(out.begin(), out.end(), memory);
}

int TtFusionEncoder::traces_captured() const {
    return static_cast<int>(std::count_if(graphs_.begin(), graphs_.end(),
                                           [](const auto& g) { return g.second->captured(); }));
}

}  // namespace sam3n::tenstorrent
