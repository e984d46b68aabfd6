// Stand-in for ttnn/cpp/ttnn/operations/matmul/matmul.hpp at the pinned tt-metal commit: matmul and linear
// with the twelve leading arguments tt-mlir 19c86fca passes (upstream adds defaulted ones after them). The
// activation is a name; program configs, core grids and tiles are only ever std::nullopt here.
#pragma once

#include <optional>
#include <string>

#include "../../../stand_in_pin.hpp"
#include "ttnn/tensor/tensor.hpp"
#include "ttnn/tensor/types.hpp"
#include "ttnn/types.hpp"
#include "ttnn/operations/core/compute_kernel/compute_kernel_config.hpp"

namespace ttnn {

namespace operations::matmul {
struct MatmulProgramConfig {};
}  // namespace operations::matmul

struct CoreGrid {};

namespace stand_in {
struct Tile {};
}  // namespace stand_in

Tensor matmul(const Tensor& input_a, const Tensor& input_b, bool transpose_a = false, bool transpose_b = false,
              const std::optional<const MemoryConfig>& memory_config = std::nullopt,
              std::optional<const DataType> dtype = std::nullopt,
              const std::optional<const operations::matmul::MatmulProgramConfig>& program_config = std::nullopt,
              const std::optional<const std::string>& activation = std::nullopt,
              std::optional<const DeviceComputeKernelConfig> compute_kernel_config = std::nullopt,
              std::optional<const CoreGrid> core_grid = std::nullopt,
              const std::optional<const stand_in::Tile>& output_tile = std::nullopt,
              std::optional<Tensor> optional_output_tensor = std::nullopt);

Tensor linear(const Tensor& input_a, const Tensor& input_b, const std::optional<const Tensor>& bias = std::nullopt,
              bool transpose_a = false, bool transpose_b = false,
              const std::optional<const MemoryConfig>& memory_config = std::nullopt,
              std::optional<const DataType> dtype = std::nullopt,
              const std::optional<const operations::matmul::MatmulProgramConfig>& program_config = std::nullopt,
              const std::optional<const std::string>& activation = std::nullopt,
              std::optional<const DeviceComputeKernelConfig> compute_kernel_config = std::nullopt,
              std::optional<const CoreGrid> core_grid = std::nullopt,
              const std::optional<const stand_in::Tile>& output_tile = std::nullopt,
              std::optional<Tensor> optional_output_tensor = std::nullopt);

}  // namespace ttnn
