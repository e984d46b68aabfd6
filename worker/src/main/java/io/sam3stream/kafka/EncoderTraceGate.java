package io.sam3stream.kafka;

import io.sam3stream.device.EncoderTrace;
import io.sam3stream.schemas.WorkerRuntimeKeys;
import java.util.Map;
import java.util.Optional;

/**
 * Whether a worker may report READY after its warm-up, as far as device traces go. On a p150a with the fused paths
 * the fusion encoder is validated as one metal trace: a worker whose warm-up did not capture that trace, or ran a
 * warm-up forward op by op, would serve slower and with numerics nobody checked, so it refuses to start instead.
 * Elsewhere (DJL, the host implementation, the legacy device graph) there is no trace to wait for.
 */
final class EncoderTraceGate {

    private EncoderTraceGate() {}

    /**
     * Checks the trace counters after {@code warmupRuns} warm-up forwards.
     *
     * @throws IllegalStateException when a trace was expected and the warm-up did not run through it
     */
    static void check(Optional<EncoderTrace> trace, int warmupRuns) {
        if (trace.isEmpty() || !trace.get().expected()) {
            return;
        }
        EncoderTrace t = trace.get();
        if (warmupRuns == 0) {
            throw new IllegalStateException("TT_FUSED=1 runs the fusion encoder as a captured trace, and the warm-up"
                    + " captures it: SAM3_WARMUP_RUNS=0 leaves it uncaptured; set SAM3_WARMUP_RUNS to 1 or more"
                    + " (or TT_FUSED=0 for the legacy device graph)");
        }
        if (!t.captured()) {
            throw new IllegalStateException("the warm-up did not capture the fusion encoder's trace (" + t + "); the"
                    + " trace region (SAM3_TRACE_REGION_SIZE) may be too small for it: the fused paths are not served"
                    + " without it (TT_FUSED=0 serves the legacy device graph)");
        }
        if (t.fallbacks() > 0) {
            throw new IllegalStateException(t.fallbacks() + " warm-up forward(s) ran the fusion encoder op by op"
                    + " instead of through its trace (" + t + "): refusing READY, as the fused paths were validated"
                    + " through the trace only");
        }
    }

    /** The heartbeat's runtime entries for {@code trace}; none where the encoder runs in DJL. */
    static Map<String, String> runtimeEntries(Optional<EncoderTrace> trace) {
        return trace.map(t -> Map.of(WorkerRuntimeKeys.ENCODER_TRACE_CAPTURED, Boolean.toString(t.captured()),
                WorkerRuntimeKeys.ENCODER_FALLBACKS, Long.toString(t.fallbacks()))).orElse(Map.of());
    }
}
