package io.sam3stream.bench;

import java.util.Map;

/**
 * Upstream's figures on this machine kind (2-vCPU AMD EPYC, torch 1.13 CPU, fp32, 2 threads), from
 * {@code golden/perf-anchor-full-size.json} (pass 2, median of the three steady runs) and
 * {@code docs/PERFORMANCE.md}. They were measured once, in another run; the control of each benchmark is what cancels
 * the machine's drift.
 */
public final class UpstreamAnchor {

    /** set_image + set_text_prompt, seconds. */
    public static final double FORWARD_SECONDS = 50.2;

    /** Seconds per module, under this engine's module names. */
    public static final Map<String, Double> MODULE_SECONDS = Map.of(
            "vit_trunk", 40.5,
            "neck", 1.49, // neck + preprocessing (upstream times them together)
            "text_encoder", 0.689,
            "geometry_encoder", 0.073,
            "fusion_encoder", 5.46,
            "decoder", 0.895,
            "dot_prod_scoring", 0.0092,
            "segmentation_head", 1.077);

    /** Resident set of the upstream process once the model is built, bytes. */
    public static final long RESIDENT_AFTER_LOAD_BYTES = 4_000_000_000L;

    /** Peak resident set of the upstream process, bytes. */
    public static final long PEAK_RSS_BYTES = 7_863L * 1024 * 1024;

    /** The seed's PIL decode + antialiased resize + normalise of a 1920×1080 PNG, milliseconds (median of 5). */
    public static final double DECODE_PREPROCESS_MS = 124;

    /** The seed's upsample + threshold + PNG-encode of 50 masks at 1920×1080, milliseconds (median of 5). */
    public static final double POSTPROCESS_50_MASKS_MS = 1302;

    private UpstreamAnchor() {}
}
