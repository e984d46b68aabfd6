// Attention pieces on the card: head splitting, SAM3's axial RoPE and masked attention.
#pragma once

#include <vector>

#include "tt_context.hpp"

namespace sam3n::tenstorrent {

/** (B, S, H * hd) -> (B, H, S, hd). */
Tensor split_heads(const TtContext& ctx, const Tensor& x, uint32_t heads);

/** (B, H, S, hd) -> (B, S, H * hd). */
Tensor merge_heads(const TtContext& ctx, const Tensor& x);

/**
 * SAM3's interleaved-pair rotation (upstream apply_rotary_enc) as x * cos + (x R) * sin, with R the
 * block-diagonal pair rotation [[0, 1], [-1, 0]] and cos/sin repeated per pair: x R maps (a, b) to (-b, a), so
 * the result is (a cos - b sin, a sin + b cos). Only matmul and elementwise ops, no half-split RoPE kernel
 * and no reordering of the qkv weights.
 */
class TtAxialRope {
public:
    /** angles: tokens x head_dim / 2 (core/vit_geometry.hpp). */
    TtAxialRope(TtContext& ctx, const std::vector<float>& angles, int head_dim);

    /** x: (B, H, tokens, head_dim). */
    Tensor operator()(const TtContext& ctx, const Tensor& x) const;

private:
    Tensor cos_;       // (1, 1, tokens, head_dim)
    Tensor sin_;       // (1, 1, tokens, head_dim)
    Tensor rotation_;  // (head_dim, head_dim)
};

/** Unmasked attention through ttnn's flash SDPA kernel: q, k, v (B, H, S, hd) -> (B, H, S, hd). */
Tensor flash_attention(const TtContext& ctx, const Tensor& q, const Tensor& k, const Tensor& v, int head_dim,
                       uint32_t chunk);

/**
 * Attention to a short, padded key sequence (the prompt): softmax(q k^T + bias) v with an additive key bias
 * (B, 1, S, P), 0 for valid keys and a large negative number for padding, broadcast over the heads. q must be
 * pre-scaled.
 */
Tensor masked_attention(const TtContext& ctx, const Tensor& q, const Tensor& k, const Tensor& v, const Tensor& bias);

}  // namespace sam3n::tenstorrent
