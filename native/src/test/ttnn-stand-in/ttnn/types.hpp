// Stand-in for ttnn/api/ttnn/types.hpp at the pinned tt-metal commit: ttnn's names for the device and the
// interleaved-DRAM memory configuration.
#pragma once

#include <tt-metalium/mesh_device.hpp>

#include "../stand_in_pin.hpp"
#include "ttnn/common/queue_id.hpp"
#include "ttnn/tensor/memory_config/memory_config.hpp"

namespace ttnn {

using MeshDevice = tt::tt_metal::distributed::MeshDevice;

extern const MemoryConfig DRAM_MEMORY_CONFIG;

}  // namespace ttnn
