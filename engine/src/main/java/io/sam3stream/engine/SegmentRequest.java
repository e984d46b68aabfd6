package io.sam3stream.engine;

import java.util.List;

/**
 * One segmentation request as the engine sees it: the reference server's {@code POST /predict} body with the
 * image already base64-decoded. Field ranges are checked by {@link Segmenter#prepare}.
 *
 * @param image        the encoded PNG or JPEG file
 * @param prompts      1..{@code SAM3_MAX_PROMPTS} noun phrases, each with optional exemplar boxes
 * @param threshold    keep instances whose score is strictly greater (0..1; default 0.5)
 * @param maxInstances most instances per prompt, highest scores first (1..200; default 50)
 * @param maskFormat   how masks are encoded in the response
 */
public record SegmentRequest(byte[] image, List<PromptSpec> prompts, float threshold, int maxInstances,
        MaskFormat maskFormat) {

    public static final float DEFAULT_THRESHOLD = 0.5f;
    public static final int DEFAULT_MAX_INSTANCES = 50;
    public static final int MAX_INSTANCES_LIMIT = 200;

    /** Longest prompt in characters ({@link io.sam3stream.config.RequestBounds#MAX_PROMPT_CHARS}). */
    public static final int MAX_PROMPT_CHARS = io.sam3stream.config.RequestBounds.MAX_PROMPT_CHARS;

    public SegmentRequest {
        prompts = List.copyOf(prompts);
    }

    /** A request with the seed's defaults for everything but the image and the prompt texts. */
    public static SegmentRequest of(byte[] image, String... prompts) {
        return new SegmentRequest(image, java.util.Arrays.stream(prompts).map(PromptSpec::text).toList(),
                DEFAULT_THRESHOLD, DEFAULT_MAX_INSTANCES, MaskFormat.PNG);
    }
}
