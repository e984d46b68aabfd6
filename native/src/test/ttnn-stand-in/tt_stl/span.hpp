// Stand-in for tt_stl/tt_stl/span.hpp at the pinned tt-metal commit: ttsl::Span, a std::span with the same
// constructors (pointer and count, or any contiguous range such as a std::vector).
#pragma once

#include <cstddef>
#include <span>

#include "../stand_in_pin.hpp"

namespace ttsl {

template <typename T, std::size_t Extent = std::dynamic_extent>
class Span : public std::span<T, Extent> {
public:
    using std::span<T, Extent>::span;
};

}  // namespace ttsl

namespace tt::stl {
using ::ttsl::Span;
}  // namespace tt::stl
