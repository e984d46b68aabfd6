// Stand-in for ttnn/cpp/ttnn/operations/eltwise/binary/binary.hpp at the pinned tt-metal commit: the
// tensor-tensor forms of add and multiply, as tt-mlir 19c86fca calls them (a, b, output dtype, memory config).
// Upstream they are registered operation objects; these free functions take the same arguments.
#pragma once

#include <optional>

#include "../../../../stand_in_pin.hpp"
#include "ttnn/tensor/tensor.hpp"
#include "ttnn/tensor/types.hpp"
#include "ttnn/types.hpp"

namespace ttnn {

Tensor add(const Tensor& input_a, const Tensor& input_b,
           const std::optional<const DataType>& output_dtype = std::nullopt,
           const std::optional<MemoryConfig>& memory_config = std::nullopt,
           const std::optional<Tensor>& output_tensor = std::nullopt);

Tensor multiply(const Tensor& input_a, const Tensor& input_b,
                const std::optional<const DataType>& output_dtype = std::nullopt,
                const std::optional<MemoryConfig>& memory_config = std::nullopt,
                const std::optional<Tensor>& output_tensor = std::nullopt);

}  // namespace ttnn
