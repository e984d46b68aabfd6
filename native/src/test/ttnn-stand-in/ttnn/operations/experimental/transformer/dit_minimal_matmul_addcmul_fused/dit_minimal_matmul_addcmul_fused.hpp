// Stand-in for ttnn/cpp/ttnn/operations/experimental/transformer/dit_minimal_matmul_addcmul_fused/
// dit_minimal_matmul_addcmul_fused.hpp. NOT CONFIRMED AT THE PIN: tt-mlir 19c86fca never calls it, and the
// tt-metal sources read show two shapes of it (this free function, and a registered operation with a fused
// activation between the bias and the config, where this call's config argument would land on the
// activation). Upstream also documents the residual input (addcmul_input_tensor1) as broadcast like a bias
// and the gate (addcmul_input_tensor2) as full-shape, while this code passes a full-shape residual and a
// one-row gate: check both on the card (native/README.md, "Validate on a p150 host").
#pragma once

#include <optional>

#include "../../../../../stand_in_pin.hpp"
#include "ttnn/tensor/tensor.hpp"
#include "ttnn/tensor/types.hpp"
#include "ttnn/types.hpp"
#include "ttnn/operations/core/compute_kernel/compute_kernel_config.hpp"
#include "ttnn/operations/experimental/minimal_matmul/device/minimal_matmul_device_operation_types.hpp"

namespace ttnn::experimental {

Tensor dit_minimal_matmul_addcmul_fused(const Tensor& matmul_input, const Tensor& matmul_weight, float scalar,
                                        const Tensor& addcmul_input1, const Tensor& addcmul_input2,
                                        const std::optional<Tensor>& bias = std::nullopt,
                                        const std::optional<const prim::MinimalMatmulConfig>& config = std::nullopt,
                                        const std::optional<MemoryConfig>& memory_config = std::nullopt,
                                        std::optional<const DataType> dtype = std::nullopt,
                                        std::optional<DeviceComputeKernelConfig> compute_kernel_config = std::nullopt);

}  // namespace ttnn::experimental
