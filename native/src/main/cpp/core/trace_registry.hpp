// Which captured metal traces a later device allocation has made unsafe to replay. Plain C++ with no ttnn
// dependency, so that the ordering rule is unit-tested on any machine (src/test/cpp/trace_registry_test.cpp).
#pragma once

#include <cstdint>
#include <map>

namespace sam3n {

/**
 * A trace records device addresses, and the intermediates it allocated while recording are freed when the
 * capture ends. A tensor allocated afterwards can land in that freed range, and every replay then writes over
 * it. That is harmless for a tensor whose contents are rewritten before each use and read right after (a
 * graph's own inputs and output, written and read around its replay), and fatal for one whose contents must
 * survive other graphs' replays: a "resident" tensor (weights, anything uploaded once and read many times).
 *
 * So the rule: every trace captured before the newest resident allocation must be released and captured
 * again before its next replay; a re-capture allocates only per-run buffers (its output), so it never makes
 * another trace stale, and two traces cannot keep invalidating each other.
 */
class TraceRegistry {
public:
    using GraphId = std::uint64_t;

    /** A graph that may be captured as a trace; the id names it in every other call. */
    GraphId enroll() { return next_graph_++; }

    /** A tensor whose contents must outlive other graphs' replays was allocated on the device. */
    void resident_allocated() { ++resident_generation_; }

    /** The graph's trace has just been captured (after every resident allocation made so far). */
    void captured(GraphId graph) { captured_at_[graph] = resident_generation_; }

    /** The graph's trace was released (or the graph is gone): there is nothing left to replay. */
    void released(GraphId graph) { captured_at_.erase(graph); }

    bool is_captured(GraphId graph) const { return captured_at_.count(graph) != 0; }

    /** True when the graph's trace predates a resident allocation: release it and capture it again first. */
    bool must_recapture(GraphId graph) const {
        auto it = captured_at_.find(graph);
        return it != captured_at_.end() && it->second < resident_generation_;
    }

private:
    GraphId next_graph_ = 0;
    std::uint64_t resident_generation_ = 0;
    /** The resident generation each captured trace was recorded at. */
    std::map<GraphId, std::uint64_t> captured_at_;
};

}  // namespace sam3n
