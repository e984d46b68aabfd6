// Stand-in for ttnn/cpp/ttnn/operations/experimental/minimal_matmul/device/minimal_matmul_device_operation_types.hpp
// at the pinned tt-metal commit: the block configuration minimal_matmul takes (only std::nullopt here).
#pragma once

#include <cstdint>

#include <tt-metalium/core_coord.hpp>

#include "../../../../../stand_in_pin.hpp"

namespace ttnn::experimental::prim {

struct MinimalMatmulConfig {
    std::uint32_t M_block_size = 0;
    std::uint32_t K_block_size = 0;
    std::uint32_t N_block_size = 0;
    std::uint32_t subblock_h = 0;
    std::uint32_t subblock_w = 0;
    CoreCoord compute_with_storage_grid_size;
};

}  // namespace ttnn::experimental::prim
