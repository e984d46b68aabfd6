package io.sam3stream.schemas.json;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sam3stream.avro.Box;
import io.sam3stream.avro.CocoRle;
import io.sam3stream.avro.Instance;
import io.sam3stream.avro.ModelIdentity;
import io.sam3stream.avro.PromptResult;
import io.sam3stream.avro.SegmentationResult;
import io.sam3stream.avro.Status;
import io.sam3stream.avro.Timing;
import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * The HTTP JSON of a {@link SegmentationResult}: field for field the record, in the reference server's order
 * (seed section 3) followed by the result's provenance. Renderings: bytes as base64, a {@code Box} as
 * {@code [x0, y0, x1, y1]}, a {@code CocoRle} as {@code {"size": [H, W], "counts": ...}} (a list of ints for
 * {@code rle}, pycocotools' string for {@code rle_compressed}); null fields are left out. Only an OK result has a
 * body: an ERROR result is its {@code error} (code and message), which each front end turns into its own error
 * response. Shared by the HTTP facade and {@code sam3 predict}, so that both print the same JSON.
 */
public final class ResultRenderer {

    private final ObjectMapper mapper;

    public ResultRenderer(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    /**
     * The response body of an OK result.
     *
     * @throws IllegalArgumentException for an ERROR result, which has no body
     */
    public byte[] render(SegmentationResult result) {
        if (result.getStatus() != Status.OK) {
            throw new IllegalArgumentException("result " + result.getRequestId() + " is " + result.getStatus()
                    + ", not OK: it has no body to render");
        }
        ObjectNode json = mapper.createObjectNode();
        json.put("width", result.getWidth());
        json.put("height", result.getHeight());
        json.put("input_size", result.getInputSize());
        json.put("threshold", result.getThreshold());
        json.put("mask_format", result.getMaskFormat().name());
        ArrayNode results = json.putArray("results");
        for (PromptResult r : result.getResults()) {
            results.add(promptResult(r));
        }
        timing(json.putObject("timing_ms"), result.getTimingMs());
        json.put("request_id", result.getRequestId());
        putIfPresent(json, "worker_id", result.getWorkerId());
        ModelIdentity model = result.getModel();
        if (model != null) {
            json.putObject("model").put("repo", model.getRepo()).put("revision", model.getRevision());
        }
        putIfPresent(json, "device", result.getDevice());
        ObjectNode metadata = json.putObject("metadata");
        for (Map.Entry<String, String> e : result.getMetadata().entrySet()) {
            metadata.put(e.getKey(), e.getValue());
        }
        try {
            return mapper.writeValueAsBytes(json);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree failed to serialize", e);
        }
    }

    private ObjectNode promptResult(PromptResult r) {
        ObjectNode json = mapper.createObjectNode();
        json.put("prompt", r.getPrompt());
        json.put("presence", r.getPresence());
        json.put("num_instances", r.getNumInstances());
        ArrayNode instances = json.putArray("instances");
        for (Instance instance : r.getInstances()) {
            instances.add(instance(instance));
        }
        return json;
    }

    private ObjectNode instance(Instance instance) {
        ObjectNode json = mapper.createObjectNode();
        json.put("score", instance.getScore());
        box(json.putArray("box_xyxy"), instance.getBoxXyxy());
        if (instance.getMaskArea() != null) {
            json.put("mask_area", instance.getMaskArea());
        }
        if (instance.getMaskPng() != null) {
            json.put("mask_png", base64(instance.getMaskPng()));
        }
        CocoRle rle = instance.getMaskRle();
        if (rle != null) {
            ObjectNode rleJson = json.putObject("mask_rle");
            ArrayNode size = rleJson.putArray("size");
            rle.getSize().forEach(size::add);
            if (rle.getCounts() instanceof List<?> runs) {
                ArrayNode counts = rleJson.putArray("counts");
                runs.forEach(run -> counts.add((Integer) run));
            } else {
                rleJson.put("counts", rle.getCounts().toString());
            }
        }
        return json;
    }

    private static void box(ArrayNode json, Box box) {
        json.add(box.getX0()).add(box.getY0()).add(box.getX1()).add(box.getY1());
    }

    /** The seed's stages in the seed's order, then the time the request waited for a worker. */
    private static void timing(ObjectNode json, Timing t) {
        json.put("decode", t.getDecode());
        json.put("preprocess", t.getPreprocess());
        json.put("forward", t.getForward());
        json.put("forward_per_prompt", t.getForwardPerPrompt());
        json.put("postprocess", t.getPostprocess());
        json.put("total", t.getTotal());
        json.put("queue", t.getQueue());
    }

    private static void putIfPresent(ObjectNode json, String name, String value) {
        if (value != null) {
            json.put(name, value);
        }
    }

    private static String base64(ByteBuffer bytes) {
        ByteBuffer view = bytes.duplicate();
        byte[] copy = new byte[view.remaining()];
        view.get(copy);
        return Base64.getEncoder().encodeToString(copy);
    }
}
