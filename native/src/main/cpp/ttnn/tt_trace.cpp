#include "tt_trace.hpp"

#include "ttnn/operations/trace.hpp"

namespace sam3n::tenstorrent {

namespace {

const ::ttnn::QueueId kQueue{0};

}  // namespace

TracedGraph::TracedGraph(TtContext& ctx, std::vector<Tensor> inputs, Graph graph, bool record)
    : ctx_(ctx), inputs_(std::move(inputs)), graph_(std::move(graph)), record_(record) {}

TracedGraph::~TracedGraph() {
    if (trace_) {
        ::ttnn::operations::trace::release_trace(ctx_.device(), *trace_);
    }
}

const Tensor& TracedGraph::run(const std::vector<Tensor>& host_inputs) {
    for (std::size_t i = 0; i < inputs_.size(); ++i) {
        ::ttnn::copy_to_device(host_inputs[i], inputs_[i], kQueue);
    }
    if (trace_) {
        ::ttnn::operations::trace::execute_trace(ctx_.device(), *trace_, kQueue, /*blocking=*/false);
        return output_;
    }
    if (!record_) {
        output_ = graph_(inputs_);
        return output_;
    }
    // First run: compile every kernel into the program cache (a trace records commands, not compilation) and
    // let that result go. Then record the graph; the recording's output tensor is where every replay writes,
    // and a first replay fills it for this request.
    graph_(inputs_);
    ::ttnn::MeshTraceId id = ::ttnn::operations::trace::begin_trace_capture(ctx_.device(), kQueue);
    output_ = graph_(inputs_);
    ::ttnn::operations::trace::end_trace_capture(ctx_.device(), id, kQueue);
    trace_ = id;
    ::ttnn::operations::trace::execute_trace(ctx_.device(), id, kQueue, /*blocking=*/false);
    return output_;
}

}  // namespace sam3n::tenstorrent
