// Where the ViT trunk's tokens live and where they are: storage order, absolute and rotary positions, and
// the patch matrix. Shared by every implementation so that they agree on the layout.
#pragma once

#include <cstdint>
#include <vector>

#include "island_config.hpp"

namespace sam3n {

/**
 * Grid index (y * G + x) of each stored token. Tokens are stored window-major (windows row-major, tokens
 * row-major inside each window), the order upstream's window_partition produces. Linear layers, norms and
 * the MLP act per token, and global attention does not depend on token order once each token carries its
 * own rotary position, so a trunk stored this way never partitions or un-partitions windows.
 */
std::vector<int> window_major_grid_index(const VitConfig& config);

/**
 * Upstream get_abs_pos(tiling=True): the pretrain grid's table (P*P x C, cls row already dropped) tiled over
 * the G x G grid, pos(y, x) = table[(y mod P) * P + x mod P], one row per stored token.
 */
std::vector<float> tiled_position_embedding(const VitConfig& config, const std::vector<int>& grid_index,
                                            const std::vector<float>& table);

/**
 * Rows [begin, end) of the patch matrix: row r is the patch under stored token r, flattened in the conv
 * weight's (channel, ky, kx) order, so that the stride-patch convolution is one matrix product.
 */
void extract_patches(const VitConfig& config, const std::vector<int>& grid_index, const float* image, int64_t begin,
                     int64_t end, float* rows);

/**
 * Rotation angles of SAM3's 2-D axial RoPE (upstream vitdet.compute_axial_cis), angle[t * head_dim / 2 + j]:
 * pair j < head_dim / 4 turns by x * f_j, pair j >= head_dim / 4 by y * f_(j - head_dim / 4), with
 * f_k = 1 / 10000^(4k / head_dim) and (x, y) the token's column and row times `scale`. Formed in float32 as
 * upstream does.
 */
std::vector<float> axial_rope_angles(const std::vector<int>& cols, const std::vector<int>& rows, float scale,
                                     int head_dim);

/** Angles of the windowed blocks: one window's tokens in local coordinates, scale 1. */
std::vector<float> window_rope_angles(const VitConfig& config);

/** Angles of the global blocks, per stored token: positions interpolated by window / grid (use_interp_rope,
 *  rope_pt_size = window), since the global blocks were trained at the window's size. */
std::vector<float> global_rope_angles(const VitConfig& config, const std::vector<int>& grid_index);

}  // namespace sam3n
