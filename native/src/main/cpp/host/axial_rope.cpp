#include "axial_rope.hpp"

#include <cmath>

namespace sam3n::host {

namespace {

constexpr int64_t kRopeRowsPerTask = 256;

}  // namespace

// The trigonometry is done in double and rounded once; upstream's torch.polar is within an ulp of that.
AxialRope::AxialRope(const std::vector<float>& angles, int head_dim)
    : pairs_(head_dim / 2), tokens_(static_cast<int64_t>(angles.size()) / (head_dim / 2)) {
    cos_.resize(angles.size());
    sin_.resize(angles.size());
    for (std::size_t i = 0; i < angles.size(); ++i) {
        cos_[i] = static_cast<float>(std::cos(static_cast<double>(angles[i])));
        sin_[i] = static_cast<float>(std::sin(static_cast<double>(angles[i])));
    }
}

void AxialRope::apply(float* rows, int64_t count, int64_t ld, int heads, ThreadPool& pool) const {
    pool.parallel_ranges(count, kRopeRowsPerTask, [&](int64_t begin, int64_t end) {
        for (int64_t r = begin; r < end; ++r) {
            const float* c = cos_.data() + (r % tokens_) * pairs_;
            const float* s = sin_.data() + (r % tokens_) * pairs_;
            float* v = rows + r * ld;
            for (int h = 0; h < heads; ++h) {
                float* head = v + static_cast<int64_t>(h) * 2 * pairs_;
                for (int j = 0; j < pairs_; ++j) {
                    const float a = head[2 * j];
                    const float b = head[2 * j + 1];
                    head[2 * j] = a * c[j] - b * s[j];
                    head[2 * j + 1] = a * s[j] + b * c[j];
                }
            }
        }
    });
}

}  // namespace sam3n::host
