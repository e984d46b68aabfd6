// Stand-in for ttnn/api/ttnn/tensor/layout/page_config.hpp at the pinned tt-metal commit.
#pragma once

#include "../../../stand_in_pin.hpp"
#include "ttnn/tensor/types.hpp"

namespace tt::tt_metal {

class PageConfig {
public:
    PageConfig(Layout layout);  // NOLINT: implicit, as upstream
};

}  // namespace tt::tt_metal

namespace ttnn {
using tt::tt_metal::PageConfig;
}  // namespace ttnn
