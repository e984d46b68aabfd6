// Stand-in for ttnn/cpp/ttnn/operations/trace.hpp at the pinned tt-metal commit: capture, replay and release of
// a metal trace on a mesh device (the calls of tt-mlir 19c86fca's runtime/lib/ttnn/operations/trace).
#pragma once

#include <optional>

#include <tt-metalium/mesh_trace_id.hpp>

#include "../../stand_in_pin.hpp"
#include "ttnn/common/queue_id.hpp"
#include "ttnn/types.hpp"

namespace ttnn {

using MeshTraceId = tt::tt_metal::distributed::MeshTraceId;

namespace operations::trace {

MeshTraceId begin_trace_capture(MeshDevice* device, std::optional<QueueId> cq_id);
void end_trace_capture(MeshDevice* device, MeshTraceId trace_id, std::optional<QueueId> cq_id);
void execute_trace(MeshDevice* device, MeshTraceId trace_id, std::optional<QueueId> cq_id, bool blocking);
void release_trace(MeshDevice* device, MeshTraceId trace_id);

}  // namespace operations::trace

}  // namespace ttnn
