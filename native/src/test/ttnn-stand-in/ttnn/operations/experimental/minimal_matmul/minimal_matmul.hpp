// Stand-in for ttnn/cpp/ttnn/operations/experimental/minimal_matmul/minimal_matmul.hpp. NOT CONFIRMED AT THE
// PIN: tt-mlir 19c86fca never calls it, and the tt-metal sources read show two shapes of this op over time (a
// registered operation whose config is required and which has no activation, and this free function with a
// fused activation, an optional config, dtype and compute config). This code is written against the free
// function; the first build on a tt-metal tree at the pin decides.
#pragma once

#include <optional>
#include <variant>
#include <vector>

#include "../../../../stand_in_pin.hpp"
#include "ttnn/tensor/tensor.hpp"
#include "ttnn/tensor/types.hpp"
#include "ttnn/types.hpp"
#include "ttnn/operations/core/compute_kernel/compute_kernel_config.hpp"
#include "ttnn/operations/eltwise/unary/common/unary_op_types.hpp"
#include "ttnn/operations/experimental/minimal_matmul/device/minimal_matmul_device_operation_types.hpp"

namespace ttnn::experimental {

Tensor minimal_matmul(const std::variant<Tensor, std::vector<Tensor>>& input, const Tensor& weight,
                      const std::optional<Tensor>& bias,
                      std::optional<operations::unary::UnaryWithParam> fused_activation,
                      const std::optional<const prim::MinimalMatmulConfig>& config,
                      const std::optional<MemoryConfig>& memory_config = std::nullopt,
                      std::optional<const DataType> dtype = std::nullopt,
                      std::optional<DeviceComputeKernelConfig> compute_kernel_config = std::nullopt,
                      bool fuse_swiglu = false);

}  // namespace ttnn::experimental
