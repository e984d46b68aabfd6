#include "island_config.hpp"

#include <algorithm>
#include <string>

#include "error.hpp"

namespace sam3n {

namespace {

void require_positive(int value, const char* what) {
    require_argument(value > 0, std::string(what) + " must be positive, got " + std::to_string(value));
}

}  // namespace

VitConfig VitConfig::from(const sam3n_vit_config& c) {
    VitConfig v{c.image_size, c.pretrain_image_size, c.patch_size, c.embed_dim, c.depth,
                c.num_heads, c.mlp_hidden, c.window_size, {}};
    require_positive(v.image_size, "vit.image_size");
    require_positive(v.pretrain_image_size, "vit.pretrain_image_size");
    require_positive(v.patch_size, "vit.patch_size");
    require_positive(v.embed_dim, "vit.embed_dim");
    require_positive(v.depth, "vit.depth");
    require_positive(v.num_heads, "vit.num_heads");
    require_positive(v.mlp_hidden, "vit.mlp_hidden");
    require_positive(v.window_size, "vit.window_size");
    require_argument(v.image_size % v.patch_size == 0, "vit.image_size " + std::to_string(v.image_size) +
                                                           " is not a multiple of patch_size " +
                                                           std::to_string(v.patch_size));
    require_argument(v.pretrain_image_size % v.patch_size == 0,
                     "vit.pretrain_image_size " + std::to_string(v.pretrain_image_size) +
                         " is not a multiple of patch_size " + std::to_string(v.patch_size));
    // Upstream pads partial windows with zero tokens that take part in attention unmasked; the released
    // model never needs it (72 % 24 == 0), so it is refused rather than implemented.
    require_argument(v.grid() % v.window_size == 0, "vit grid " + std::to_string(v.grid()) +
                                                        " is not a multiple of window_size " +
                                                        std::to_string(v.window_size));
    require_argument(v.embed_dim % v.num_heads == 0 && v.head_dim() % 4 == 0,
                     "vit head dim (embed_dim / num_heads) must be an integer multiple of 4 for the axial RoPE");
    require_argument(c.num_global_blocks > 0 && c.global_blocks != nullptr,
                     "vit needs at least one global block: the trunk output is taken after the last one");
    for (int i = 0; i < c.num_global_blocks; ++i) {
        int b = c.global_blocks[i];
        require_argument(b >= 0 && b < v.depth, "vit global block " + std::to_string(b) + " is outside depth " +
                                                     std::to_string(v.depth));
        v.global_blocks.push_back(b);
    }
    std::sort(v.global_blocks.begin(), v.global_blocks.end());
    require_argument(std::adjacent_find(v.global_blocks.begin(), v.global_blocks.end()) == v.global_blocks.end(),
                     "vit global blocks must be distinct");
    return v;
}

bool VitConfig::is_global(int block) const {
    return std::binary_search(global_blocks.begin(), global_blocks.end(), block);
}

EncoderConfig EncoderConfig::from(const sam3n_encoder_config& c) {
    EncoderConfig e{c.d_model, c.num_layers, c.num_heads, c.dim_feedforward};
    require_positive(e.d_model, "encoder.d_model");
    require_positive(e.num_layers, "encoder.num_layers");
    require_positive(e.num_heads, "encoder.num_heads");
    require_positive(e.dim_feedforward, "encoder.dim_feedforward");
    require_argument(e.d_model % e.num_heads == 0, "encoder.d_model " + std::to_string(e.d_model) +
                                                       " is not a multiple of num_heads " +
                                                       std::to_string(e.num_heads));
    return e;
}

}  // namespace sam3n
