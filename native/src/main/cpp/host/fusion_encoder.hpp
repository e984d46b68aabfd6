// The fusion encoder (docs/MODEL.md §7; upstream sam3/model/encoder.py TransformerEncoderFusion with pre-norm
// TransformerEncoderLayer) in fp32 on the host.
#pragma once

#include <vector>

#include "../core/island_backend.hpp"
#include "../core/island_config.hpp"
#include "../core/weight_store.hpp"
#include "attention.hpp"
#include "layers.hpp"

namespace sam3n::host {

class FusionEncoder {
public:
    /** Takes the encoder's weights from the store. */
    FusionEncoder(const EncoderConfig& config, WeightStore& weights, const CpuKernels& kernels);

    /** -> memory (batch, tokens, d). */
    void run(const EncoderBatch& in, float* memory, ThreadPool& pool);

private:
    /** nn.MultiheadAttention's packed in_proj split where its inputs differ: [q | k] share an input in the
     *  self-attention, [k | v] in the cross-attention. */
    struct Layer {
        LayerNorm norm1;
        Linear self_qk;
        Linear self_v;
        Linear self_out;
        LayerNorm norm2;
        Linear cross_q;
        Linear cross_kv;
        Linear cross_out;
        LayerNorm norm3;
        Linear linear1;
        Linear linear2;
    };

    static Layer take_layer(WeightStore& weights, int index, int64_t d, const CpuKernels& kernels);
    void self_attention(const Layer& layer, const EncoderBatch& in, float* x, ThreadPool& pool);
    void cross_attention(const Layer& layer, const EncoderBatch& in, float* x, ThreadPool& pool);
    void feed_forward(const Layer& layer, int64_t rows, float* x, ThreadPool& pool);

    EncoderConfig config_;
    const CpuKernels& kernels_;
    std::vector<Layer> layers_;

    std::vector<float> normed_;    // rows x d
    std::vector<float> with_pos_;  // rows x d
    std::vector<float> qk_;        // rows x 2d (self) / q: rows x d (cross)
    std::vector<float> v_;         // rows x d
    std::vector<float> kv_;        // batch * prompt_len x 2d
    std::vector<float> attended_;  // rows x d
    std::vector<float> hidden_;    // rows x dim_feedforward
};

}  // namespace sam3n::host
