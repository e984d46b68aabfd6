// The ViT trunk on the card (docs/MODEL.md §3), as one graph recorded into a metal trace.
#pragma once

#include <memory>
#include <vector>

#include "../core/island_config.hpp"
#include "../core/weight_store.hpp"
#include "tt_attention.hpp"
#include "tt_layers.hpp"
#include "tt_trace.hpp"

namespace sam3n::tenstorrent {

/**
 * Same token layout as the host implementation (window-major, core/vit_geometry.hpp), which turns every
 * window partition into a free reshape: (1, T, 3C) -> (windows, window^2, 3C). The patch embedding's im2col
 * runs on the host (a copy); its product with the conv weight runs on the card.
 */
class TtVitTrunk {
public:
    TtVitTrunk(TtContext& ctx, const VitConfig& config, WeightStore& weights, bool fused, bool traced);

    /** image (1, 3, R, R) -> out (1, C, G, G). */
    void run(const float* image, float* out);

    bool trace_captured() const { return graph_->captured(); }

private:
    struct Block {
        bool global;
        TtLayerNorm norm1;
        TtLinear qkv;
        TtLinear proj;
        TtLayerNorm norm2;
        TtLinear fc1;
        TtLinear fc2;
    };

    Tensor forward(const Tensor& patches) const;
    Tensor block(const Block& b, const Tensor& x) const;

    TtContext& ctx_;
    VitConfig config_;
    bool fused_;
    std::vector<int> grid_index_;
    TtLinear patch_embed_;
    Tensor pos_;  // (1, 1, T, C), stored order
    TtLayerNorm ln_pre_;
    std::vector<Block> blocks_;
    TtAxialRope window_rope_;
    TtAxialRope global_rope_;
    std::unique_ptr<TracedGraph> graph_;
};

}  // namespace sam3n::tenstorrent
