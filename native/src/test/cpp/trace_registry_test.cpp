// The trace ordering rule of core/trace_registry.hpp: a trace captured before a resident device allocation
// is re-captured before its next replay; per-run buffers (a graph's inputs and output) never invalidate one.
// Run by ctest (and so by `mvn verify`).
#include <string>

#include "core/trace_registry.hpp"
#include "test_checks.hpp"

using sam3n::TraceRegistry;
using sam3n::testing::check;
using sam3n::testing::finish;

namespace {

void a_resident_allocation_after_a_capture_forces_a_recapture() {
    TraceRegistry traces;
    const auto t1 = traces.enroll();
    traces.resident_allocated();  // A: weights, before any capture
    traces.captured(t1);
    check(!traces.must_recapture(t1), "T1 captured after A replays as recorded");
    traces.resident_allocated();  // B: may lie in T1's freed intermediates
    check(traces.must_recapture(t1), "T1 captured before B must be re-captured");
    traces.resident_allocated();  // C: still stale, still one re-capture
    check(traces.must_recapture(t1), "T1 stays stale until it is re-captured");
    traces.released(t1);
    check(!traces.is_captured(t1) && !traces.must_recapture(t1), "a released trace has nothing to replay");
    traces.captured(t1);
    check(!traces.must_recapture(t1), "the re-captured T1 knows B and C");
}

void only_the_traces_older_than_the_allocation_are_stale() {
    TraceRegistry traces;
    const auto backbone = traces.enroll();
    const auto encoder = traces.enroll();
    check(backbone != encoder, "every graph gets its own id");
    traces.captured(backbone);
    traces.resident_allocated();
    traces.captured(encoder);
    check(traces.must_recapture(backbone), "the backbone trace predates the allocation");
    check(!traces.must_recapture(encoder), "the encoder trace was captured after it");
}

void per_run_buffers_and_recaptures_never_invalidate_another_trace() {
    // Graph inputs and outputs are not resident: capturing one trace after another (each allocating its
    // output) and re-capturing leaves the others valid, so two traces cannot invalidate each other forever.
    TraceRegistry traces;
    const auto backbone = traces.enroll();
    const auto encoder = traces.enroll();
    traces.captured(backbone);
    traces.captured(encoder);
    check(!traces.must_recapture(backbone) && !traces.must_recapture(encoder), "both traces stay valid");
    traces.released(encoder);
    traces.captured(encoder);
    check(!traces.must_recapture(backbone), "re-capturing the encoder leaves the backbone trace valid");
}

void a_graph_never_captured_needs_no_recapture() {
    TraceRegistry traces;
    const auto eager = traces.enroll();
    traces.resident_allocated();
    check(!traces.is_captured(eager) && !traces.must_recapture(eager), "an eager graph is never stale");
    traces.released(eager);  // releasing what was never captured is a no-op
    check(!traces.is_captured(eager), "still not captured");
}

}  // namespace

int main() {
    a_resident_allocation_after_a_capture_forces_a_recapture();
    only_the_traces_older_than_the_allocation_are_stale();
    per_run_buffers_and_recaptures_never_invalidate_another_trace();
    a_graph_never_captured_needs_no_recapture();
    return finish("all trace ordering checks passed");
}
