// Applies SAM3's 2-D axial rotary position encoding (docs/MODEL.md §3.4; upstream vitdet.apply_rotary_enc) on the
// host.
#pragma once

#include <cstdint>
#include <vector>

#include "thread_pool.hpp"

namespace sam3n::host {

/** cos and sin of the rotation angles (core/vit_geometry.hpp), one row per token. */
class AxialRope {
public:
    /** angles: tokens x head_dim / 2, as axial_rope_angles returns them. */
    AxialRope(const std::vector<float>& angles, int head_dim);

    /**
     * Rotates the interleaved pairs (v[2j], v[2j + 1]) of every head of `count` token rows in place:
     * rows of `heads * head_dim` values at stride ld; token t uses table row t % tokens(), so a table for
     * one window serves every window.
     */
    void apply(float* rows, int64_t count, int64_t ld, int heads, ThreadPool& pool) const;

    int64_t tokens() const { return tokens_; }

private:
    int pairs_;
    int64_t tokens_;
    std::vector<float> cos_;
    std::vector<float> sin_;
};

}  // namespace sam3n::host
