package io.sam3stream.model.result;

import java.util.Comparator;
import java.util.List;

/**
 * The result of one prompt on one image.
 *
 * @param presence  probability that the prompt's concept is present at all, sigmoid(presence logit)
 * @param instances instances whose score passed the threshold, in query order unless re-ordered by
 *                  {@link #highestScoring(int)}
 */
public record PromptDetections(float presence, List<Instance> instances) {

    /** Best score first; equal scores keep query order so the result is deterministic. */
    private static final Comparator<Instance> BY_SCORE =
            Comparator.comparingDouble((Instance i) -> i.score()).reversed().thenComparingInt(Instance::queryIndex);

    public PromptDetections {
        instances = List.copyOf(instances);
    }

    /**
     * The {@code maxInstances} highest-scoring instances, best first. Upstream returns every kept instance in query
     * order; callers that cap the count opt into this ordering.
     */
    public PromptDetections highestScoring(int maxInstances) {
        if (maxInstances < 0) {
            throw new IllegalArgumentException("maxInstances must not be negative, got " + maxInstances);
        }
        return new PromptDetections(presence, instances.stream().sorted(BY_SCORE).limit(maxInstances).toList());
    }
}
