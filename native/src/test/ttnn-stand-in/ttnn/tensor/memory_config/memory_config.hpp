// Stand-in for ttnn/api/ttnn/tensor/memory_config/memory_config.hpp at the pinned tt-metal commit: only passed
// around here, never inspected.
#pragma once

#include "../../../stand_in_pin.hpp"

namespace tt::tt_metal {

class MemoryConfig {};

}  // namespace tt::tt_metal

namespace ttnn {
using tt::tt_metal::MemoryConfig;
}  // namespace ttnn
