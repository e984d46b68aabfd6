// Stand-in for ttnn/cpp/ttnn/operations/transformer/concatenate_heads/concatenate_heads.hpp at the pinned
// tt-metal commit: (B, H, S, hd) -> (B, S, H * hd), with a memory config (tt-mlir 19c86fca's call).
#pragma once

#include <optional>

#include "../../../../stand_in_pin.hpp"
#include "ttnn/tensor/tensor.hpp"
#include "ttnn/tensor/types.hpp"
#include "ttnn/types.hpp"

namespace ttnn::transformer {

Tensor concatenate_heads(const Tensor& input, const std::optional<MemoryConfig>& memory_config = std::nullopt);

}  // namespace ttnn::transformer
