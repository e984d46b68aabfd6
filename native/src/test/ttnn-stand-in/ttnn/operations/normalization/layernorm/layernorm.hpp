// Stand-in for ttnn/cpp/ttnn/operations/normalization/layernorm/layernorm.hpp at the pinned tt-metal commit.
// tt-mlir 19c86fca passes the first seven arguments; the eighth, the compute kernel config, follows the
// tt-metal sources read for this and is not confirmed by a call at the pin.
#pragma once

#include <optional>

#include "../../../../stand_in_pin.hpp"
#include "ttnn/tensor/tensor.hpp"
#include "ttnn/tensor/types.hpp"
#include "ttnn/types.hpp"
#include "ttnn/operations/core/compute_kernel/compute_kernel_config.hpp"

namespace ttnn {

namespace operations::normalization {
struct LayerNormProgramConfig {};
}  // namespace operations::normalization

Tensor layer_norm(const Tensor& input, float epsilon = 1e-12f, const std::optional<const Tensor>& weight = std::nullopt,
                  const std::optional<const Tensor>& bias = std::nullopt,
                  const std::optional<const Tensor>& residual_input_tensor = std::nullopt,
                  const std::optional<MemoryConfig>& memory_config = std::nullopt,
                  const std::optional<const operations::normalization::LayerNormProgramConfig>& program_config =
                      std::nullopt,
                  std::optional<const DeviceComputeKernelConfig> compute_kernel_config = std::nullopt);

}  // namespace ttnn
