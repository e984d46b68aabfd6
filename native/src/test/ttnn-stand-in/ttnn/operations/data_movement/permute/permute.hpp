// Stand-in for ttnn/cpp/ttnn/operations/data_movement/permute/permute.hpp at the pinned tt-metal commit: the
// permutation as a ttsl::SmallVector<int64_t>, then memory config and pad value (tt-mlir 19c86fca's call).
#pragma once

#include <cstdint>
#include <optional>

#include <tt_stl/small_vector.hpp>

#include "../../../../stand_in_pin.hpp"
#include "ttnn/tensor/tensor.hpp"
#include "ttnn/tensor/types.hpp"
#include "ttnn/types.hpp"

namespace ttnn {

Tensor permute(const Tensor& input, const ttsl::SmallVector<std::int64_t>& dims,
               const std::optional<MemoryConfig>& memory_config = std::nullopt, float pad_value = 0.0f);

}  // namespace ttnn
