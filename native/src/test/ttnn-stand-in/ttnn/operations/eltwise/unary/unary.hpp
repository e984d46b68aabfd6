// Stand-in for ttnn/cpp/ttnn/operations/eltwise/unary/unary.hpp at the pinned tt-metal commit: gelu with its
// fast_and_approximate_mode flag, the five arguments tt-mlir 19c86fca passes.
#pragma once

#include <optional>

#include <tt-metalium/core_coord.hpp>

#include "../../../../stand_in_pin.hpp"
#include "ttnn/tensor/tensor.hpp"
#include "ttnn/tensor/types.hpp"
#include "ttnn/types.hpp"
#include "ttnn/operations/eltwise/unary/common/unary_op_types.hpp"

namespace ttnn {

Tensor gelu(const Tensor& input, bool fast_and_approximate_mode = true,
            const std::optional<MemoryConfig>& memory_config = std::nullopt,
            const std::optional<Tensor>& output_tensor = std::nullopt,
            const std::optional<CoreRangeSet>& sub_core_grids = std::nullopt);

}  // namespace ttnn
