// Stand-in for tt_metal/api/tt-metalium/dispatch_core_common.hpp at the pinned tt-metal commit. The implicit
// constructor from a DispatchCoreType is what tt-mlir 19c86fca relies on when it passes a type to
// MeshDevice::create.
#pragma once

#include <cstdint>

#include "../stand_in_pin.hpp"

namespace tt::tt_metal {

enum class DispatchCoreType : std::uint32_t { WORKER, ETH, COUNT };
enum class DispatchCoreAxis { ROW, COL, COUNT };

class DispatchCoreConfig {
public:
    DispatchCoreConfig();
    DispatchCoreConfig(DispatchCoreType type);  // NOLINT: implicit, as upstream
    DispatchCoreConfig(DispatchCoreType type, DispatchCoreAxis axis);
};

}  // namespace tt::tt_metal
