// Stand-in for tt_metal/api/tt-metalium/mesh_config.hpp at the pinned tt-metal commit: MeshDeviceConfig as
// tt-mlir 19c86fca constructs it (optional shape, offset, physical device ids).
#pragma once

#include <optional>
#include <vector>

#include <tt-metalium/mesh_coord.hpp>

#include "../stand_in_pin.hpp"

namespace tt::tt_metal::distributed {

class MeshDeviceConfig {
public:
    MeshDeviceConfig(const std::optional<MeshShape>& mesh_shape,
                     const std::optional<MeshCoordinate>& offset = std::nullopt,
                     const std::vector<int>& physical_device_ids = {});
};

}  // namespace tt::tt_metal::distributed
