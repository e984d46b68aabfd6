// Stand-in for ttnn/cpp/ttnn/operations/data_movement/reshape_view/reshape.hpp at the pinned tt-metal commit:
// reshape to a ttnn::Shape (tt-mlir 19c86fca's pool2d) or to a list of extents (its reshape op).
#pragma once

#include <cstdint>
#include <optional>

#include <tt_stl/span.hpp>

#include "../../../../stand_in_pin.hpp"
#include "ttnn/tensor/tensor.hpp"
#include "ttnn/tensor/types.hpp"
#include "ttnn/types.hpp"

namespace ttnn {

Tensor reshape(const Tensor& input, const Shape& logical_shape,
               const std::optional<MemoryConfig>& memory_config = std::nullopt);

Tensor reshape(const Tensor& input, ttsl::Span<const std::int32_t> shape,
               const std::optional<MemoryConfig>& memory_config = std::nullopt);

}  // namespace ttnn
