// Stand-in for tt_metal/api/tt-metalium/mesh_trace_id.hpp at the pinned tt-metal commit: a trace's id (a
// strong integer type upstream), copied and compared, never built by the caller.
#pragma once

#include <cstdint>

#include "../stand_in_pin.hpp"

namespace tt::tt_metal::distributed {

class MeshTraceId {
public:
    explicit MeshTraceId(std::uint32_t value);
    std::uint32_t operator*() const;
};

}  // namespace tt::tt_metal::distributed
