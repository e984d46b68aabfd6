#include "vit_trunk.hpp"

#include "../core/vit_geometry.hpp"
#include "../core/weight_names.hpp"

namespace sam3n::host {

namespace {

constexpr int64_t kTokensPerTask = 64;

std::size_t size(int64_t rows, int64_t cols) { return static_cast<std::size_t>(rows * cols); }

}  // namespace

VitTrunk::VitTrunk(const VitConfig& config, WeightStore& weights, const CpuKernels& kernels)
    : config_(config),
      kernels_(kernels),
      grid_index_(window_major_grid_index(config)),
      pos_(tiled_position_embedding(config, grid_index_, weights.take(names::trunk("pos_embed")).values)),
      patch_embed_(Linear::take(weights, names::trunk("patch_embed.proj."), false, kernels)),
      ln_pre_(LayerNorm::take(weights, names::trunk("ln_pre."))),
      window_rope_(window_rope_angles(config), config.head_dim()),
      global_rope_(global_rope_angles(config, grid_index_), config.head_dim()) {
    for (int b = 0; b <= config.last_global_block(); ++b) {
        blocks_.push_back(Block{config.is_global(b),
                                LayerNorm::take(weights, names::trunk_block(b, "norm1.")),
                                Linear::take(weights, names::trunk_block(b, "attn.qkv."), true, kernels),
                                Linear::take(weights, names::trunk_block(b, "attn.proj."), true, kernels),
                                LayerNorm::take(weights, names::trunk_block(b, "norm2.")),
                                Linear::take(weights, names::trunk_block(b, "mlp.fc1."), true, kernels),
                                Linear::take(weights, names::trunk_block(b, "mlp.fc2."), true, kernels)});
    }
    const int64_t t = config.tokens();
    const int64_t c = config.embed_dim;
    patches_.resize(size(t, patch_embed_.in()));
    x_.resize(size(t, c));
    normed_.resize(size(t, c));
    qkv_.resize(size(t, 3 * c));
    attended_.resize(size(t, c));
    hidden_.resize(size(t, config.mlp_hidden));

    // qkv rows are [q | k | v], each heads x head_dim (upstream reshape(B, L, 3, heads, head_dim)).
    const int hd = config.head_dim();
    auto head = [&](int64_t row0, int64_t len, int h) {
        return AttentionHead{qkv_.data() + row0 * 3 * c + h * hd, 3 * c, len,
                             qkv_.data() + row0 * 3 * c + c + h * hd, 3 * c,
                             qkv_.data() + row0 * 3 * c + 2 * c + h * hd, 3 * c, len,
                             nullptr, attended_.data() + row0 * c + h * hd, c};
    };
    const int windows = config.windows_per_side() * config.windows_per_side();
    for (int w = 0; w < windows; ++w) {
        for (int h = 0; h < config.num_heads; ++h) {
            window_heads_.push_back(head(int64_t{w} * config.window_tokens(), config.window_tokens(), h));
        }
    }
    for (int h = 0; h < config.num_heads; ++h) {
        global_heads_.push_back(head(0, t, h));
    }
}

void VitTrunk::embed_patches(const float* image, ThreadPool& pool) {
    const int64_t k = patch_embed_.in();
    pool.parallel_ranges(config_.tokens(), kTokensPerTask, [&](int64_t begin, int64_t end) {
        extract_patches(config_, grid_index_, image, begin, end, patches_.data() + begin * k);
    });
    const int64_t c = config_.embed_dim;
    patch_embed_.apply(patches_.data(), k, config_.tokens(), x_.data(), c, Activation::none, false, pool);
    pool.parallel_ranges(config_.tokens(), kTokensPerTask, [&](int64_t begin, int64_t end) {
        for (int64_t i = begin * c; i < end * c; ++i) {
            x_[static_cast<std::size_t>(i)] += pos_[static_cast<std::size_t>(i)];
        }
    });
    ln_pre_.apply(x_.data(), x_.data(), config_.tokens(), pool);
}

// x += proj(attn(LN1(x))); x += fc2(GELU(fc1(LN2(x)))) (upstream Block.forward).
void VitTrunk::run_block(const Block& block, ThreadPool& pool) {
    const int64_t t = config_.tokens();
    const int64_t c = config_.embed_dim;
    block.norm1.apply(x_.data(), normed_.data(), t, pool);
    block.qkv.apply(normed_.data(), c, t, qkv_.data(), 3 * c, Activation::none, false, pool);
    const AxialRope& rope = block.global ? global_rope_ : window_rope_;
    rope.apply(qkv_.data(), t, 3 * c, config_.num_heads, pool);
    rope.apply(qkv_.data() + c, t, 3 * c, config_.num_heads, pool);
    attention(block.global ? global_heads_ : window_heads_, config_.head_dim(), kernels_, pool);
    block.proj.apply(attended_.data(), c, t, x_.data(), c, Activation::none, true, pool);
    block.norm2.apply(x_.data(), normed_.data(), t, pool);
    block.fc1.apply(normed_.data(), c, t, hidden_.data(), config_.mlp_hidden, Activation::gelu, false, pool);
    block.fc2.apply(hidden_.data(), config_.mlp_hidden, t, x_.data(), c, Activation::none, true, pool);
}

void VitTrunk::run(const float* image, float* out, ThreadPool& pool) {
    embed_patches(image, pool);
    for (const Block& block : blocks_) {
        run_block(block, pool);
    }
    // Back to the grid, channels first: out[ch][y][x].
    const int64_t t = config_.tokens();
    const int64_t c = config_.embed_dim;
    pool.parallel_ranges(t, kTokensPerTask, [&](int64_t begin, int64_t end) {
        for (int64_t row = begin; row < end; ++row) {
            const int64_t cell = grid_index_[static_cast<std::size_t>(row)];
            const float* src = x_.data() + row * c;
            for (int64_t ch = 0; ch < c; ++ch) {
                out[ch * t + cell] = src[ch];
            }
        }
    });
}

}  // namespace sam3n::host
