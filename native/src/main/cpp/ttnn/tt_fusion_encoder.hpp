// The fusion encoder on the card (docs/MODEL.md §7). Fused: one metal trace per input shape, with the prompt's
// cross-attention keys and values for every layer computed once at the start of the graph and kept on the card.
#pragma once

#include <cstdint>
#include <list>
#include <memory>
#include <tuple>
#include <vector>

#include "../core/island_backend.hpp"
#include "../core/island_config.hpp"
#include "../core/weight_store.hpp"
#include "tt_attention.hpp"
#include "tt_layers.hpp"
#include "tt_trace.hpp"

namespace sam3n::tenstorrent {

class TtFusionEncoder {
public:
    TtFusionEncoder(TtContext& ctx, const EncoderConfig& config, WeightStore& weights, bool fused, bool traced);

    /** -> memory (batch, tokens, d). */
    void run(const EncoderBatch& in, float* memory);

    /** Input shapes whose graph has been recorded as a trace. */
    int traces_captured() const;

    /** Runs that replayed a trace, and runs that executed op by op (compiling a new shape, or no trace). */
    int64_t traced_runs() const { return traced_runs_; }
    int64_t eager_runs() const { return eager_runs_; }

private:
    struct Layer {
        TtLayerNorm norm1;
        TtLinear self_q;
        TtLinear self_k;
        TtLinear self_v;
        TtLinear self_out;
        TtLayerNorm norm2;
        TtLinear cross_q;  // pre-scaled by 1 / sqrt(head_dim)
        TtLinear cross_k;
        TtLinear cross_v;
        TtLinear cross_out;
        TtLayerNorm norm3;
        TtLinear linear1;
        TtLinear linear2;
    };

    /** (batch, tokens, padded prompt length): one graph each. */
    using ShapeKey = std::tuple<int, int, int>;

    static Layer take_layer(TtContext& ctx, WeightStore& weights, int index, const EncoderConfig& config);
    Tensor forward(const Tensor& features, const Tensor& pos, const Tensor& prompt, const Tensor& key_bias) const;
    TracedGraph& graph_for(const ShapeKey& key);

    TtContext& ctx_;
    EncoderConfig config_;
    bool fused_;
    bool traced_;
    int64_t traced_runs_ = 0;
    int64_t eager_runs_ = 0;
    std::vector<Layer> layers_;
    /** Most recently used first; the oldest trace is released when the cache is full. */
    std::list<std::pair<ShapeKey, std::unique_ptr<TracedGraph>>> graphs_;
};

}  // namespace sam3n::tenstorrent
