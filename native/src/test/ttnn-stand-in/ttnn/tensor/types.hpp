// Stand-in for ttnn/api/ttnn/tensor/types.hpp at the pinned tt-metal commit: the element types and layouts
// (upstream declares DataType in a tt-metalium header this one includes).
#pragma once

#include "../../stand_in_pin.hpp"
#include "ttnn/tensor/memory_config/memory_config.hpp"
#include "ttnn/tensor/shape/shape.hpp"

namespace tt::tt_metal {

enum class DataType { BFLOAT16, FLOAT32, UINT32, BFLOAT8_B, BFLOAT4_B, UINT8, UINT16, INT32, INVALID };
enum class Layout { ROW_MAJOR, TILE, INVALID };

}  // namespace tt::tt_metal

namespace ttnn {
using tt::tt_metal::DataType;
using tt::tt_metal::Layout;
}  // namespace ttnn
