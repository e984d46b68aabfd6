#include "vit_geometry.hpp"

#include <algorithm>
#include <cmath>

namespace sam3n {

std::vector<int> window_major_grid_index(const VitConfig& config) {
    const int g = config.grid();
    const int w = config.window_size;
    std::vector<int> index;
    index.reserve(static_cast<std::size_t>(config.tokens()));
    for (int wy = 0; wy < config.windows_per_side(); ++wy) {
        for (int wx = 0; wx < config.windows_per_side(); ++wx) {
            for (int ly = 0; ly < w; ++ly) {
                for (int lx = 0; lx < w; ++lx) {
                    index.push_back((wy * w + ly) * g + wx * w + lx);
                }
            }
        }
    }
    return index;
}

std::vector<float> tiled_position_embedding(const VitConfig& config, const std::vector<int>& grid_index,
                                            const std::vector<float>& table) {
    const int g = config.grid();
    const int p = config.pretrain_grid();
    const auto width = static_cast<std::size_t>(config.embed_dim);
    std::vector<float> pos(grid_index.size() * width);
    for (std::size_t r = 0; r < grid_index.size(); ++r) {
        const int y = grid_index[r] / g;
        const int x = grid_index[r] % g;
        const float* src = table.data() + static_cast<std::size_t>((y % p) * p + x % p) * width;
        std::copy(src, src + width, pos.begin() + static_cast<std::ptrdiff_t>(r * width));
    }
    return pos;
}

void extract_patches(const VitConfig& config, const std::vector<int>& grid_index, const float* image, int64_t begin,
                     int64_t end, float* rows) {
    const int p = config.patch_size;
    const int g = config.grid();
    const int64_t r = config.image_size;
    float* dst = rows;
    for (int64_t token = begin; token < end; ++token) {
        const int y = grid_index[static_cast<std::size_t>(token)] / g;
        const int x = grid_index[static_cast<std::size_t>(token)] % g;
        for (int ch = 0; ch < 3; ++ch) {
            for (int ky = 0; ky < p; ++ky) {
                const float* src = image + (ch * r + int64_t{y} * p + ky) * r + int64_t{x} * p;
                dst = std::copy(src, src + p, dst);
            }
        }
    }
}

std::vector<float> axial_rope_angles(const std::vector<int>& cols, const std::vector<int>& rows, float scale,
                                     int head_dim) {
    constexpr float kTheta = 10000.0f;
    const int per_axis = head_dim / 4;
    const int pairs = head_dim / 2;
    std::vector<float> freqs(static_cast<std::size_t>(per_axis));
    for (int k = 0; k < per_axis; ++k) {
        const float exponent = static_cast<float>(4 * k) / static_cast<float>(head_dim);
        freqs[static_cast<std::size_t>(k)] = 1.0f / std::pow(kTheta, exponent);
    }
    std::vector<float> angles(cols.size() * static_cast<std::size_t>(pairs));
    for (std::size_t t = 0; t < cols.size(); ++t) {
        const float x = static_cast<float>(cols[t]) * scale;
        const float y = static_cast<float>(rows[t]) * scale;
        for (int j = 0; j < pairs; ++j) {
            const float position = j < per_axis ? x : y;
            angles[t * static_cast<std::size_t>(pairs) + static_cast<std::size_t>(j)] =
                position * freqs[static_cast<std::size_t>(j % per_axis)];
        }
    }
    return angles;
}

std::vector<float> window_rope_angles(const VitConfig& config) {
    std::vector<int> cols, rows;
    for (int t = 0; t < config.window_tokens(); ++t) {
        cols.push_back(t % config.window_size);
        rows.push_back(t / config.window_size);
    }
    return axial_rope_angles(cols, rows, 1.0f, config.head_dim());
}

std::vector<float> global_rope_angles(const VitConfig& config, const std::vector<int>& grid_index) {
    std::vector<int> cols, rows;
    for (int i : grid_index) {
        cols.push_back(i % config.grid());
        rows.push_back(i / config.grid());
    }
    const auto scale = static_cast<float>(static_cast<double>(config.window_size) / config.grid());
    return axial_rope_angles(cols, rows, scale, config.head_dim());
}

}  // namespace sam3n
