// Stand-in for ttnn/cpp/ttnn/operations/transformer/split_query_key_value_and_split_heads/
// split_query_key_value_and_split_heads.hpp at the pinned tt-metal commit: packed [q|k|v] -> q, k, v per head,
// with the six arguments tt-mlir 19c86fca passes.
#pragma once

#include <cstdint>
#include <optional>
#include <tuple>

#include "../../../../stand_in_pin.hpp"
#include "ttnn/tensor/tensor.hpp"
#include "ttnn/tensor/types.hpp"
#include "ttnn/types.hpp"

namespace ttnn::transformer {

std::tuple<Tensor, Tensor, Tensor> split_query_key_value_and_split_heads(
    const Tensor& input, const std::optional<Tensor>& input_kv = std::nullopt, std::uint32_t num_heads = 1,
    std::optional<std::uint32_t> num_kv_heads = std::nullopt, bool transpose_key = true,
    const std::optional<MemoryConfig>& memory_config = std::nullopt);

}  // namespace ttnn::transformer
