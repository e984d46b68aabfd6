package io.sam3stream.schemas;

/**
 * Keys of a {@code WorkerStatus}'s {@code runtime} map that readers other than people rely on: the facade's
 * {@code /info} lifts them to its own {@code runtime}, named as the reference server names them.
 */
public final class WorkerRuntimeKeys {

    /** "true" once the device captured the fusion encoder's trace; present where the encoder runs on a device. */
    public static final String ENCODER_TRACE_CAPTURED = "encoder_trace_captured";

    /** Encoder runs that fell back to op by op where a trace was expected; present with the key above. */
    public static final String ENCODER_FALLBACKS = "encoder_fallbacks";

    private WorkerRuntimeKeys() {}
}
