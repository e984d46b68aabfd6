// Stand-in for ttnn/cpp/ttnn/operations/transformer/sdpa_config.hpp at the pinned tt-metal commit: the fields
// of SDPAProgramConfig that tt-mlir 19c86fca and this code set.
#pragma once

#include <cstddef>
#include <optional>

#include <tt-metalium/core_coord.hpp>

#include "../../../stand_in_pin.hpp"

namespace ttnn::operations::transformer {

struct SDPAProgramConfig {
    CoreCoord compute_with_storage_grid_size;
    std::optional<CoreRangeSet> sub_core_grids;
    std::size_t q_chunk_size = 32;
    std::size_t k_chunk_size = 32;
    std::optional<bool> exp_approx_mode;
};

}  // namespace ttnn::operations::transformer
