package io.sam3stream.label;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sam3stream.imaging.CocoRle;
import java.time.Instant;
import java.util.List;

/**
 * A run's answers as a COCO instances file: {@code images} (id, file name, size), {@code categories} (one per
 * prompt) and {@code annotations} (compressed RLE {@code segmentation}, {@code bbox} as {@code [x, y, width,
 * height]} and {@code area}, both computed from the mask as pycocotools does, the model's {@code score}, {@code
 * iscrowd: 0}). An instance whose mask is empty at the image's resolution carries no label and is left out.
 */
public final class CocoDataset {

    private final ObjectMapper mapper;
    private final ObjectNode root;
    private final ArrayNode images;
    private final ArrayNode annotations;
    private int skippedEmpty;

    public CocoDataset(ObjectMapper mapper, LabelQuery query) {
        this.mapper = mapper;
        root = mapper.createObjectNode();
        root.putObject("info").put("description", "SAM3 labels for the prompts " + query.prompts())
                .put("date_created", Instant.now().toString()).put("version", "1.0");
        root.putArray("licenses");
        images = root.putArray("images");
        annotations = root.putArray("annotations");
        ArrayNode categories = root.putArray("categories");
        List<String> names = query.categories();
        for (int c = 0; c < names.size(); c++) {
            categories.addObject().put("id", c + 1).put("name", names.get(c)).put("supercategory", "object");
        }
    }

    /**
     * Adds one image and its instances.
     *
     * @param imageId    the image's id (stable across runs: its place in the sorted dataset, from 1)
     * @param fileName   its file name relative to the dataset folder
     * @param predict    its {@code /predict} JSON, masks as compressed RLE, prompts in the query's order
     */
    public void add(int imageId, String fileName, JsonNode predict) {
        int width = predict.get("width").asInt();
        int height = predict.get("height").asInt();
        images.addObject().put("id", imageId).put("file_name", fileName).put("width", width).put("height", height);
        JsonNode results = predict.get("results");
        for (int p = 0; p < results.size(); p++) {
            for (JsonNode instance : results.get(p).get("instances")) {
                JsonNode rle = instance.get("mask_rle");
                CocoRle mask = CocoRle.fromCompressed(height, width, rle.get("counts").asText());
                if (mask.area() == 0) {
                    skippedEmpty++;
                    continue;
                }
                ObjectNode a = annotations.addObject();
                a.put("id", annotations.size());
                a.put("image_id", imageId);
                a.put("category_id", p + 1);
                ObjectNode segmentation = a.putObject("segmentation");
                segmentation.putArray("size").add(height).add(width);
                segmentation.put("counts", rle.get("counts").asText());
                ArrayNode bbox = a.putArray("bbox");
                for (int v : mask.boundingBox()) {
                    bbox.add(v);
                }
                a.put("area", mask.area());
                a.put("score", instance.get("score").asDouble());
                a.put("iscrowd", 0);
            }
        }
    }

    /** Instances left out because their mask is empty. */
    public int skippedEmpty() {
        return skippedEmpty;
    }

    /** Annotations added so far. */
    public int annotationCount() {
        return annotations.size();
    }

    /** The COCO file's bytes. */
    public byte[] toJson() {
        try {
            return mapper.writeValueAsBytes(root);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree failed to serialize", e);
        }
    }
}
