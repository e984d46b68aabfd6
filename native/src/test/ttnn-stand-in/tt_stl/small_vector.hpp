// Stand-in for tt_stl/tt_stl/small_vector.hpp at the pinned tt-metal commit: ttsl::SmallVector (a vector
// with inline storage upstream; the stand-in only needs its constructors).
#pragma once

#include <cstddef>
#include <vector>

#include "../stand_in_pin.hpp"

namespace ttsl {

template <typename T, std::size_t InlineCapacity = 8>
class SmallVector : public std::vector<T> {
public:
    using std::vector<T>::vector;
};

}  // namespace ttsl
