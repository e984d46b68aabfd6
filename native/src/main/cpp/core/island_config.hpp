// The islands' sizes, validated once at open.
#pragma once

#include <cstdint>
#include <vector>

#include "sam3native.h"

namespace sam3n {

/** The ViT trunk's hyper-parameters (docs/MODEL.md §3). */
struct VitConfig {
    int image_size;
    int pretrain_image_size;
    int patch_size;
    int embed_dim;
    int depth;
    int num_heads;
    int mlp_hidden;
    int window_size;
    std::vector<int> global_blocks;  // sorted, distinct

    /** Checks every constraint the math relies on (docs/MODEL.md §1.4). */
    static VitConfig from(const sam3n_vit_config& c);

    int grid() const { return image_size / patch_size; }
    int tokens() const { return grid() * grid(); }
    int pretrain_grid() const { return pretrain_image_size / patch_size; }
    int head_dim() const { return embed_dim / num_heads; }
    int windows_per_side() const { return grid() / window_size; }
    int window_tokens() const { return window_size * window_size; }
    bool is_global(int block) const;
    /** Upstream ViT.forward returns the state after this block; later blocks never influence the output. */
    int last_global_block() const { return global_blocks.back(); }
};

/** The fusion encoder's hyper-parameters (docs/MODEL.md §7). */
struct EncoderConfig {
    int d_model;
    int num_layers;
    int num_heads;
    int dim_feedforward;

    static EncoderConfig from(const sam3n_encoder_config& c);

    int head_dim() const { return d_model / num_heads; }
};

struct IslandConfig {
    VitConfig vit;
    EncoderConfig encoder;
};

}  // namespace sam3n
