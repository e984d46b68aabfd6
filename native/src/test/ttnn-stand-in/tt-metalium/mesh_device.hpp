// Stand-in for tt_metal/api/tt-metalium/mesh_device.hpp at the pinned tt-metal commit: the members of
// MeshDevice this code calls. create() is declared up to the dispatch core config, the arguments tt-mlir
// 19c86fca passes; upstream has further defaulted parameters after it.
#pragma once

#include <cstddef>
#include <memory>

#include <hostdevcommon/common_values.hpp>
#include <tt-metalium/core_coord.hpp>
#include <tt-metalium/dispatch_core_common.hpp>
#include <tt-metalium/mesh_config.hpp>
#include <tt-metalium/mesh_coord.hpp>

#include "../stand_in_pin.hpp"

namespace tt::tt_metal::distributed {

class MeshDevice {
public:
    static std::shared_ptr<MeshDevice> create(const MeshDeviceConfig& config,
                                              std::size_t l1_small_size = DEFAULT_L1_SMALL_SIZE,
                                              std::size_t trace_region_size = DEFAULT_TRACE_REGION_SIZE,
                                              std::size_t num_command_queues = 1,
                                              const DispatchCoreConfig& dispatch_core_config = DispatchCoreConfig{});

    void enable_program_cache();
    bool close();
    CoreCoord compute_with_storage_grid_size() const;
};

}  // namespace tt::tt_metal::distributed
