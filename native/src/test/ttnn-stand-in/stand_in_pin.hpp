// Not an upstream header: the tt-metal commit every declaration under this folder was written against. The
// build passes the pin it reads from native/cmake/tt-metal-pin.txt; a bumped pin fails here until the
// declarations have been checked against the new commit and this literal moved with them.
#pragma once

#include <string_view>

#ifndef SAM3N_TT_METAL_PIN
#error "SAM3N_TT_METAL_PIN must name the pinned tt-metal commit (CMake passes it from cmake/tt-metal-pin.txt)"
#endif

static_assert(std::string_view(SAM3N_TT_METAL_PIN) == "d5f9bc4a43b1287523458f1af6a470c6b2adc180",
              "cmake/tt-metal-pin.txt names another tt-metal commit than the one the stand-in headers declare");
