// The ViT image trunk (docs/MODEL.md §3; upstream sam3/model/vitdet.py ViT) in fp32 on the host.
#pragma once

#include <vector>

#include "../core/island_config.hpp"
#include "../core/weight_store.hpp"
#include "attention.hpp"
#include "axial_rope.hpp"
#include "layers.hpp"

namespace sam3n::host {

/** Tokens are stored window-major for the whole trunk (core/vit_geometry.hpp): windows are row ranges. */
class VitTrunk {
public:
    /** Takes the trunk's weights from the store. */
    VitTrunk(const VitConfig& config, WeightStore& weights, const CpuKernels& kernels);

    /** image (1, 3, R, R) -> out (1, C, G, G). */
    void run(const float* image, float* out, ThreadPool& pool);

private:
    struct Block {
        bool global;
        LayerNorm norm1;
        Linear qkv;
        Linear proj;
        LayerNorm norm2;
        Linear fc1;
        Linear fc2;
    };

    void embed_patches(const float* image, ThreadPool& pool);
    void run_block(const Block& block, ThreadPool& pool);

    VitConfig config_;
    const CpuKernels& kernels_;
    /** Grid index (y * G + x) of each stored token. */
    std::vector<int> grid_index_;
    /** The tiled absolute position embedding in storage order (T x C). */
    std::vector<float> pos_;
    Linear patch_embed_;
    LayerNorm ln_pre_;
    std::vector<Block> blocks_;
    AxialRope window_rope_;
    AxialRope global_rope_;

    std::vector<float> patches_;  // T x (3 * patch^2)
    std::vector<float> x_;        // T x C, the residual stream
    std::vector<float> normed_;   // T x C
    std::vector<float> qkv_;      // T x 3C
    std::vector<float> attended_; // T x C
    std::vector<float> hidden_;   // T x mlp_hidden
    std::vector<AttentionHead> window_heads_;
    std::vector<AttentionHead> global_heads_;
};

}  // namespace sam3n::host
