// Stand-in for tt_metal/hostdevcommon/api/hostdevcommon/common_values.hpp at the pinned tt-metal commit: only
// what native/src/main/cpp/ttnn uses. tt-mlir 19c86fca uses both constants unqualified, as here.
#pragma once

#include <cstddef>

#include "../stand_in_pin.hpp"

constexpr static std::size_t DEFAULT_L1_SMALL_SIZE = 0;
constexpr static std::size_t DEFAULT_TRACE_REGION_SIZE = 0;
