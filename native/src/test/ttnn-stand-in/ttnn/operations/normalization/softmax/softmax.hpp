// Stand-in for ttnn/cpp/ttnn/operations/normalization/softmax/softmax.hpp at the pinned tt-metal commit:
// dimension, memory config, compute kernel config and numeric stability, as tt-mlir 19c86fca calls it.
#pragma once

#include <cstdint>
#include <optional>

#include "../../../../stand_in_pin.hpp"
#include "ttnn/tensor/tensor.hpp"
#include "ttnn/tensor/types.hpp"
#include "ttnn/types.hpp"
#include "ttnn/operations/core/compute_kernel/compute_kernel_config.hpp"

namespace ttnn {

Tensor softmax(const Tensor& input, std::int32_t dim = -1,
               const std::optional<MemoryConfig>& memory_config = std::nullopt,
               const std::optional<DeviceComputeKernelConfig>& compute_kernel_config = std::nullopt,
               bool numeric_stable = true);

}  // namespace ttnn
