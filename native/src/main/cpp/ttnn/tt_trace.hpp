// A device graph run through a metal trace: the upstream port's TracedViTBackbone recipe (run once to compile
// and fill the program cache, record over persistent inputs, then per request copy inputs in and replay).
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include "ttnn/operations/trace.hpp"

#include "../core/trace_registry.hpp"
#include "tt_context.hpp"

namespace sam3n::tenstorrent {

class TracedGraph {
public:
    using Graph = std::function<Tensor(const std::vector<Tensor>& inputs)>;

    /**
     * inputs: persistent device tensors the graph reads; their specs fix the host inputs' specs.
     * record = false runs the graph eagerly every time (no trace region, or the legacy path).
     */
    TracedGraph(TtContext& ctx, std::vector<Tensor> inputs, Graph graph, bool record);
    ~TracedGraph();

    TracedGraph(const TracedGraph&) = delete;
    TracedGraph& operator=(const TracedGraph&) = delete;

    /**
     * Copies the host tensors into the inputs and runs the graph. When recording, the first run executes
     * eagerly (compiling the kernels) and then captures the trace, and every later run replays it, after
     * capturing it again if a resident tensor was allocated since (TraceRegistry). The returned tensor is the
     * graph's output on the device: read it before any other graph runs, whose replay may write over it.
     */
    Tensor run(const std::vector<Tensor>& host_inputs);

    bool captured() const { return trace_.has_value(); }

private:
    void capture();
    void release();

    TtContext& ctx_;
    std::vector<Tensor> inputs_;
    Graph graph_;
    bool record_;
    TraceRegistry::GraphId id_;
    bool compiled_ = false;
    std::optional<::ttnn::MeshTraceId> trace_;
    Tensor output_;
};

}  // namespace sam3n::tenstorrent
