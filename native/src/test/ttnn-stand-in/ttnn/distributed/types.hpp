// Stand-in for ttnn/api/ttnn/distributed/types.hpp at the pinned tt-metal commit: ttnn's names for the mesh
// types, as tt-mlir 19c86fca's openMeshDevice spells them.
#pragma once

#include <tt-metalium/mesh_config.hpp>
#include <tt-metalium/mesh_coord.hpp>
#include <tt-metalium/mesh_device.hpp>

#include "../../stand_in_pin.hpp"

namespace ttnn {

using MeshCoordinate = tt::tt_metal::distributed::MeshCoordinate;
using MeshDevice = tt::tt_metal::distributed::MeshDevice;
using MeshDeviceConfig = tt::tt_metal::distributed::MeshDeviceConfig;
using MeshShape = tt::tt_metal::distributed::MeshShape;

}  // namespace ttnn
