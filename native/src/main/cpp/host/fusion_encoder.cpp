#include "fusion_encoder.hpp"

#include <algorithm>

#include "../core/weight_names.hpp"

namespace sam3n::host {

namespace {

void ensure(std::vector<float>& buffer, int64_t rows, int64_t cols) {
    buffer.resize(static_cast<std::size_t>(rows * cols));
}

}  // namespace

FusionEncoder::Layer FusionEncoder::take_layer(WeightStore& weights, int index, int64_t d,
                                               const CpuKernels& kernels) {
    auto name = [&](const char* leaf) { return names::encoder_layer(index, leaf); };
    HostWeight self_in = weights.take(name("self_attn.in_proj_weight"));
    HostWeight self_in_bias = weights.take(name("self_attn.in_proj_bias"));
    HostWeight cross_in = weights.take(name("cross_attn_image.in_proj_weight"));
    HostWeight cross_in_bias = weights.take(name("cross_attn_image.in_proj_bias"));
    return Layer{LayerNorm::take(weights, name("norm1.")),
                 Linear::rows_of(self_in, self_in_bias, 0, 2 * d, kernels),
                 Linear::rows_of(self_in, self_in_bias, 2 * d, d, kernels),
                 Linear::take(weights, name("self_attn.out_proj."), true, kernels),
                 LayerNorm::take(weights, name("norm2.")),
                 Linear::rows_of(cross_in, cross_in_bias, 0, d, kernels),
                 Linear::rows_of(cross_in, cross_in_bias, d, 2 * d, kernels),
                 Linear::take(weights, name("cross_attn_image.out_proj."), true, kernels),
                 LayerNorm::take(weights, name("norm3.")),
                 Linear::take(weights, name("linear1."), true, kernels),
                 Linear::take(weights, name("linear2."), true, kernels)};
}

FusionEncoder::FusionEncoder(const EncoderConfig& config, WeightStore& weights, const CpuKernels& kernels)
    : config_(config), kernels_(kernels) {
    for (int l = 0; l < config.num_layers; ++l) {
        layers_.push_back(take_layer(weights, l, config.d_model, kernels));
    }
}

// x += out_proj(MHA(q = k = LN1(x) + pos, v = LN1(x))), per prompt over its image tokens.
void FusionEncoder::self_attention(const Layer& layer, const EncoderBatch& in, float* x, ThreadPool& pool) {
    const int64_t d = config_.d_model;
    const int64_t hw = in.tokens;
    const int64_t rows = int64_t{in.batch} * hw;
    layer.norm1.apply(x, normed_.data(), rows, pool);
    pool.parallel_ranges(rows, 256, [&](int64_t begin, int64_t end) {
        for (int64_t r = begin; r < end; ++r) {
            const float* pos = in.pos + (r % hw) * d;
            for (int64_t j = 0; j < d; ++j) {
                with_pos_[static_cast<std::size_t>(r * d + j)] = normed_[static_cast<std::size_t>(r * d + j)] + pos[j];
            }
        }
    });
    layer.self_qk.apply(with_pos_.data(), d, rows, qk_.data(), 2 * d, Activation::none, false, pool);
    layer.self_v.apply(normed_.data(), d, rows, v_.data(), d, Activation::none, false, pool);
    const int hd = config_.head_dim();
    std::vector<AttentionHead> heads;
    for (int64_t b = 0; b < in.batch; ++b) {
        for (int h = 0; h < config_.num_heads; ++h) {
            const int64_t row0 = b * hw;
            heads.push_back({qk_.data() + row0 * 2 * d + h * hd, 2 * d, hw,
                             qk_.data() + row0 * 2 * d + d + h * hd, 2 * d,
                             v_.data() + row0 * d + h * hd, d, hw,
                             nullptr, attended_.data() + row0 * d + h * hd, d});
        }
    }
    attention(heads, hd, kernels_, pool);
    layer.self_out.apply(attended_.data(), d, rows, x, d, Activation::none, true, pool);
}

// x += out_proj(MHA(q = LN2(x), k = v = prompt, key_padding_mask = prompt_mask)); no positions on either side.
void FusionEncoder::cross_attention(const Layer& layer, const EncoderBatch& in, float* x, ThreadPool& pool) {
    const int64_t d = config_.d_model;
    const int64_t hw = in.tokens;
    const int64_t p = in.prompt_len;
    const int64_t rows = int64_t{in.batch} * hw;
    layer.norm2.apply(x, normed_.data(), rows, pool);
    layer.cross_q.apply(normed_.data(), d, rows, qk_.data(), d, Activation::none, false, pool);
    layer.cross_kv.apply(in.prompt, d, int64_t{in.batch} * p, kv_.data(), 2 * d, Activation::none, false, pool);
    const int hd = config_.head_dim();
    std::vector<AttentionHead> heads;
    for (int64_t b = 0; b < in.batch; ++b) {
        for (int h = 0; h < config_.num_heads; ++h) {
            heads.push_back({qk_.data() + b * hw * d + h * hd, d, hw,
                             kv_.data() + b * p * 2 * d + h * hd, 2 * d,
                             kv_.data() + b * p * 2 * d + d + h * hd, 2 * d, p,
                             in.prompt_mask + b * p, attended_.data() + b * hw * d + h * hd, d});
        }
    }
    attention(heads, hd, kernels_, pool);
    layer.cross_out.apply(attended_.data(), d, rows, x, d, Activation::none, true, pool);
}

// x += linear2(ReLU(linear1(LN3(x)))).
void FusionEncoder::feed_forward(const Layer& layer, int64_t rows, float* x, ThreadPool& pool) {
    const int64_t d = config_.d_model;
    layer.norm3.apply(x, normed_.data(), rows, pool);
    layer.linear1.apply(normed_.data(), d, rows, hidden_.data(), config_.dim_feedforward, Activation::relu, false,
                        pool);
    layer.linear2.apply(hidden_.data(), config_.dim_feedforward, rows, x, d, Activation::none, true, pool);
}

void FusionEncoder::run(const EncoderBatch& in, float* memory, ThreadPool& pool) {
    const int64_t d = config_.d_model;
    const int64_t hw = in.tokens;
    const int64_t rows = int64_t{in.batch} * hw;
    ensure(normed_, rows, d);
    ensure(with_pos_, rows, d);
    ensure(qk_, rows, 2 * d);
    ensure(v_, rows, d);
    ensure(kv_, int64_t{in.batch} * in.prompt_len, 2 * d);
    ensure(attended_, rows, d);
    ensure(hidden_, rows, config_.dim_feedforward);
    // The residual stream lives in the output buffer; one feature map is shared by every prompt.
    for (int64_t b = 0; b < in.batch; ++b) {
        const float* src = in.image_features + (in.feature_batch == 1 ? 0 : b) * hw * d;
        std::copy(src, src + hw * d, memory + b * hw * d);
    }
    for (const Layer& layer : layers_) {
        self_attention(layer, in, memory, pool);
        cross_attention(layer, in, memory, pool);
        feed_forward(layer, rows, memory, pool);
    }
}

}  // namespace sam3n::host
