// Stand-in for tt_metal/api/tt-metalium/core_coord.hpp at the pinned tt-metal commit: a core coordinate with
// x and y (a grid size here) and the core range set some ops take.
#pragma once

#include <cstddef>

#include "../stand_in_pin.hpp"

namespace tt {

struct xy_pair {
    std::size_t x = 0;
    std::size_t y = 0;
};

}  // namespace tt

using CoreCoord = tt::xy_pair;

class CoreRangeSet {};

namespace tt::tt_metal {
using ::CoreCoord;
using ::CoreRangeSet;
}  // namespace tt::tt_metal
