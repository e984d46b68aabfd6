// Stand-in for ttnn/api/ttnn/tensor/shape/shape.hpp at the pinned tt-metal commit: built from a braced list
// of extents (as tt-mlir 19c86fca builds it) and indexed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>

#include "../../../stand_in_pin.hpp"

namespace tt::tt_metal {

class Shape {
public:
    explicit Shape(std::initializer_list<std::uint32_t> extents);
    std::uint32_t operator[](std::int32_t index) const;
    std::size_t rank() const;
};

}  // namespace tt::tt_metal

namespace ttnn {
using tt::tt_metal::Shape;
}  // namespace ttnn
