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

    Inference(PreparedRequest prepared, List<PromptDetections> detections, double forwardMs,
            boolean imageFeaturesCached) {
        this.prepared = prepared;
        this.detections = List.copyOf(detections);
        this.forwardMs = forwardMs;
        this.imageFeaturesCached = imageFeaturesCached;
    }

    /** The prepared request this answers. */
    public PreparedRequest prepared() {
        return prepared;
    }

    /** True when the image features came from the cache (the backbone did not run). */
    public boolean imageFeaturesCached() {
        return imageFeaturesCached;
    }
}
