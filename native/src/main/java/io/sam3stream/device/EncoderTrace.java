package io.sam3stream.device;

/**
 * How the fusion encoder's runs went through metal traces on a device. On a p150a with the fused paths and a trace
 * region, the encoder is recorded once and replayed; a run that executes op by op there is a fallback, slower and
 * not the numerics that were validated, which is why a worker refuses READY unless its warm-up replayed the trace.
 *
 * @param expected   the device should run the encoder through traces (ttnn with {@code TT_FUSED=1})
 * @param captured   a trace of the encoder has been recorded
 * @param tracedRuns runs that replayed a trace
 * @param eagerRuns  runs that executed op by op (on the host implementation, every run)
 */
public record EncoderTrace(boolean expected, boolean captured, long tracedRuns, long eagerRuns) {

    /** Runs that fell back to op by op where a trace was expected (the reference server's encoder_fallbacks). */
    public long fallbacks() {
        return expected ? eagerRuns : 0;
    }
}
