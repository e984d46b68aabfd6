package io.sam3stream.engine;

import java.util.List;

/**
 * The answer to a {@link SegmentRequest}: the reference server's {@code /predict} response.
 *
 * @param width      original image width
 * @param height     original image height
 * @param inputSize  model input side (1008 at full size)
 * @param threshold  the score threshold applied
 * @param maskFormat how masks are encoded
 * @param results    one entry per prompt, in request order
 * @param timings    where the time went
 */
public record SegmentResponse(int width, int height, int inputSize, float threshold, MaskFormat maskFormat,
        List<PromptResult> results, StageTimings timings) {

    public SegmentResponse {
        results = List.copyOf(results);
    }

    /**
     * The instances found for one prompt.
     *
     * @param prompt    the prompt text as given
     * @param presence  probability that the concept is present at all (sigmoid of the presence logit)
     * @param instances kept instances, highest score first, at most {@code max_instances}
     */
    public record PromptResult(String prompt, float presence, List<Instance> instances) {
        public PromptResult {
            instances = List.copyOf(instances);
        }
    }

    /**
     * One detected instance.
     *
     * @param score    sigmoid(logit) × sigmoid(presence)
     * @param boxXyxy  box in original pixels, clamped to the image
     * @param maskArea foreground pixels of the mask at the original size
     * @param mask     the encoded mask, or null for {@link MaskFormat#NONE}
     */
    public record Instance(float score, float[] boxXyxy, long maskArea, EncodedMask mask) {}
}
