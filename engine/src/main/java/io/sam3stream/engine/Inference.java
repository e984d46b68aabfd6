package io.sam3stream.engine;

import io.sam3stream.model.result.PromptDetections;
import java.util.List;

/**
 * The model's answer to a {@link PreparedRequest}: per prompt, the instances above the threshold with their mask
 * logits at the model's mask resolution. Produced by {@link Segmenter#infer}; consumed by {@link Segmenter#finish}.
 */
public final class Inference {

    final PreparedRequest prepared;
    final List<PromptDetections> detections;
    final double forwardMs;
    final boolean imageFeaturesCached;
    private final double imageEncoderMs;
    private final int textFeaturesComputed;
    private final double textEncoderMs;
    private final double groundingMs;

    Inference(PreparedRequest prepared, List<PromptDetections> detections, double forwardMs,
            boolean imageFeaturesCached, double imageEncoderMs, int textFeaturesComputed, double textEncoderMs,
            double groundingMs) {
        this.prepared = prepared;
        this.detections = List.copyOf(detections);
        this.forwardMs = forwardMs;
        this.imageFeaturesCached = imageFeaturesCached;
        this.imageEncoderMs = imageEncoderMs;
        this.textFeaturesComputed = textFeaturesComputed;
        this.textEncoderMs = textEncoderMs;
        this.groundingMs = groundingMs;
    }

    /** The prepared request this answers. */
    public PreparedRequest prepared() {
        return prepared;
    }

    /** True when the image features came from the cache (the backbone did not run). */
    public boolean imageFeaturesCached() {
        return imageFeaturesCached;
    }

    /** Milliseconds the image encoder (backbone and neck) ran for this request; 0 when its features were cached. */
    public double imageEncoderMs() {
        return imageEncoderMs;
    }

    /**
     * Prompts whose text features the text encoder computed for this request; the others came from the cache or
     * from an equal prompt earlier in the same request.
     */
    public int textFeaturesComputed() {
        return textFeaturesComputed;
    }

    /** Milliseconds the text encoder ran for this request, over every prompt it computed; 0 when it did not run. */
    public double textEncoderMs() {
        return textEncoderMs;
    }

    /**
     * Milliseconds of everything after the features: fusion encoder, decoder, heads and the selection of the
     * instances above the threshold, for all prompts as one batch.
     */
    public double groundingMs() {
        return groundingMs;
    }
}
