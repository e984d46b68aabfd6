// Stand-in for tt_metal/api/tt-metalium/base_types.hpp at the pinned tt-metal commit: MathFidelity, spelled
// ::tt::tt_metal::MathFidelity as tt-mlir 19c86fca's runtime spells it.
#pragma once

#include <cstdint>

#include "../stand_in_pin.hpp"

namespace tt::tt_metal {

enum class MathFidelity : std::uint8_t { LoFi, HiFi2, HiFi3, HiFi4, Invalid };

}  // namespace tt::tt_metal
