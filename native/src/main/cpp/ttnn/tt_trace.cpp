#include "tt_trace.hpp"

#include "ttnn/operations/core/core.hpp"

namespace sam3n::tenstorrent {

namespace {

const ::ttnn::QueueId kQueue{0};

}  // namespace

TracedGraph::TracedGraph(TtContext& ctx, std::vector<Tensor> inputs, Graph graph, bool record)
    : ctx_(ctx), inputs_(std::move(inputs)), graph_(std::move(graph)), record_(record), id_(ctx.traces().enroll()) {}

TracedGraph::~TracedGraph() { release(); }

Tensor TracedGraph::run(const std::vector<Tensor>& host_inputs) {
    for (std::size_t i = 0; i < inputs_.size(); ++i) {
        ::ttnn::copy_to_device(host_inputs[i], inputs_[i], kQueue);
    }
    if (!record_) {
        return graph_(inputs_);
    }
    if (ctx_.traces().must_recapture(id_)) {
        release();
    }
    if (!trace_) {
        if (!compiled_) {
            // A trace records commands, not compilation: fill the program cache first and let that result go.
            graph_(inputs_);
            compiled_ = true;
        }
        capture();
    }
    // The recording's output tensor is where every replay writes; this replay fills it for this request.
    ::ttnn::operations::trace::execute_trace(ctx_.device(), *trace_, kQueue, /*blocking=*/false);
    return output_;
}

void TracedGraph::capture() {
    ::ttnn::MeshTraceId id = ::ttnn::operations::trace::begin_trace_capture(ctx_.device(), kQueue);
    output_ = graph_(inputs_);
    ::ttnn::operations::trace::end_trace_capture(ctx_.device(), id, kQueue);
    trace_ = id;
    ctx_.traces().captured(id_);
}

void TracedGraph::release() {
    if (trace_) {
        ::ttnn::operations::trace::release_trace(ctx_.device(), *trace_);
        trace_.reset();
    }
    ctx_.traces().released(id_);
}

}  // namespace sam3n::tenstorrent
