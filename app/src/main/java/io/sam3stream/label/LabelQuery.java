package io.sam3stream.label;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * What every image of a run is asked: the prompts, each with the COCO category it labels, and the request's
 * threshold and instance bound. Masks always come back as compressed RLE, COCO's own form.
 *
 * @param prompts      noun phrases, one request per image asks them all
 * @param categories   the COCO category name of each prompt (same length as {@code prompts})
 * @param threshold    score threshold, 0..1
 * @param maxInstances most instances per prompt
 */
public record LabelQuery(List<String> prompts, List<String> categories, float threshold, int maxInstances) {

    /** The mask format asked of every labeller. */
    public static final String MASK_FORMAT = "rle_compressed";

    public LabelQuery {
        prompts = List.copyOf(prompts);
        categories = List.copyOf(categories);
        if (prompts.isEmpty() || prompts.size() != categories.size()) {
            throw new IllegalArgumentException("one category name per prompt: " + prompts.size() + " prompts, "
                    + categories.size() + " categories");
        }
        if (!(threshold >= 0 && threshold <= 1)) {
            throw new IllegalArgumentException("threshold must be within 0..1, got " + threshold);
        }
        if (maxInstances < 1) {
            throw new IllegalArgumentException("max instances must be at least 1, got " + maxInstances);
        }
    }

    /** The query as JSON, recorded in the results log so that a resumed run can refuse a different one. */
    public ObjectNode toJson(ObjectMapper mapper) {
        ObjectNode json = mapper.createObjectNode();
        prompts.forEach(json.putArray("prompts")::add);
        categories.forEach(json.putArray("categories")::add);
        json.put("threshold", Double.parseDouble(Float.toString(threshold))); // as written, read back equal
        json.put("max_instances", maxInstances);
        return json;
    }
}
