// Stand-in for ttnn/api/ttnn/tensor/layout/tensor_layout.hpp at the pinned tt-metal commit.
#pragma once

#include "../../../stand_in_pin.hpp"
#include "ttnn/tensor/layout/page_config.hpp"
#include "ttnn/tensor/types.hpp"

namespace tt::tt_metal {

class TensorLayout {
public:
    TensorLayout(DataType dtype, const PageConfig& page_config, const MemoryConfig& memory_config);
};

}  // namespace tt::tt_metal

namespace ttnn {
using tt::tt_metal::TensorLayout;
}  // namespace ttnn
