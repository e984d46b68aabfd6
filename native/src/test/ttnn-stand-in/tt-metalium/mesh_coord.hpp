// Stand-in for tt_metal/api/tt-metalium/mesh_coord.hpp at the pinned tt-metal commit: MeshShape and
// MeshCoordinate, built from a list of extents (tt-mlir 19c86fca passes a std::vector<uint32_t>).
#pragma once

#include <cstdint>

#include <tt_stl/span.hpp>

#include "../stand_in_pin.hpp"

namespace tt::tt_metal::distributed {

class MeshShape {
public:
    explicit MeshShape(ttsl::Span<const std::uint32_t> shape);
    MeshShape(std::uint32_t rows, std::uint32_t cols);
};

class MeshCoordinate {
public:
    explicit MeshCoordinate(ttsl::Span<const std::uint32_t> coords);
    MeshCoordinate(std::uint32_t row, std::uint32_t col);
};

}  // namespace tt::tt_metal::distributed
