// Stand-in for ttnn/cpp/ttnn/operations/transformer/sdpa/sdpa.hpp at the pinned tt-metal commit: the eleven
// leading parameters of scaled_dot_product_attention, all of which tt-mlir 19c86fca passes (upstream adds
// defaulted ones after the attention sink).
#pragma once

#include <cstdint>
#include <optional>

#include "../../../../stand_in_pin.hpp"
#include "ttnn/tensor/tensor.hpp"
#include "ttnn/tensor/types.hpp"
#include "ttnn/types.hpp"
#include "ttnn/operations/core/compute_kernel/compute_kernel_config.hpp"
#include "ttnn/operations/transformer/sdpa_config.hpp"

namespace ttnn::transformer {

Tensor scaled_dot_product_attention(const Tensor& input_q, const Tensor& input_k, const Tensor& input_v,
                                    const std::optional<Tensor>& attn_mask = std::nullopt, bool is_causal = true,
                                    std::optional<float> scale = std::nullopt,
                                    std::optional<std::uint32_t> sliding_window_size = std::nullopt,
                                    const std::optional<MemoryConfig>& memory_config = std::nullopt,
                                    std::optional<operations::transformer::SDPAProgramConfig> program_config =
                                        std::nullopt,
                                    std::optional<DeviceComputeKernelConfig> compute_kernel_config = std::nullopt,
                                    const std::optional<Tensor>& attention_sink = std::nullopt);

}  // namespace ttnn::transformer
