package io.sam3stream.bench;

/**
 * The performance goals the benchmarks report against, in one place so that a goal is changed once and every table
 * and document quoting it follows. Ratios are measured / reference: at or below the goal is met. The references are
 * {@link UpstreamAnchor}'s figures, or the same process's own fp32 run where a goal compares precisions.
 */
public final class PerformanceGoals {

    /** Full-size forward (set_image + one text prompt) against upstream's anchor. */
    public static final double FORWARD_VS_UPSTREAM = 0.4;

    /** Full-size forward in a reduced precision against the same process's fp32 forward. */
    public static final double REDUCED_FORWARD_VS_FP32 = 0.4;

    /** ViT trunk in a reduced precision against the same process's fp32 trunk. */
    public static final double REDUCED_VIT_VS_FP32 = 0.35;

    /** A further prompt on an image already encoded, against the full forward of the same mode. */
    public static final double EXTRA_PROMPT_VS_FORWARD = 0.1;

    /**
     * Each small-operator module of the prompt side (geometry encoder, decoder, dot-product scoring, segmentation
     * head) against upstream's time for the same module.
     */
    public static final double SMALL_MODULE_VS_UPSTREAM = 1.0;

    /** Peak resident set during an fp32 forward, bytes. */
    public static final double PEAK_RESIDENT_FP32_BYTES = 4.5e9;

    /** Peak resident set during a reduced-precision forward, bytes (weights held once, in 16 bits). */
    public static final double PEAK_RESIDENT_REDUCED_BYTES = 2.5e9;

    /** Decode + preprocess of a 1920×1080 PNG against the reference server's. */
    public static final double DECODE_PREPROCESS_VS_SEED = 0.5;

    /** Upsample + PNG-encode of 50 masks against the reference server's. */
    public static final double POSTPROCESS_VS_SEED = 0.5;

    /** Tiny checkpoint, overlapped stages, requests per second. */
    public static final double TINY_REQUESTS_PER_SECOND = 150;

    /** What the facade and Kafka add to a request's latency, median, milliseconds. */
    public static final double OVERHEAD_P50_MS = 3;

    /** What the facade and Kafka add to a request's latency, 99th percentile, milliseconds. */
    public static final double OVERHEAD_P99_MS = 10;

    /** {@code GET /v1/jobs/{id}} on loopback with 10,000 jobs stored, 99th percentile, milliseconds. */
    public static final double JOB_GET_P99_MS = 5;

    private PerformanceGoals() {}
}
