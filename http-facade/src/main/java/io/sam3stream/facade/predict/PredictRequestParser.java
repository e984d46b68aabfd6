package io.sam3stream.facade.predict;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import io.sam3stream.avro.MaskFormat;
import io.sam3stream.avro.Prompt;
import io.sam3stream.avro.SegmentationRequest;
import io.sam3stream.config.RequestBounds;
import io.sam3stream.facade.http.ApiException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Turns a {@code POST /predict} body into the {@link SegmentationRequest} a worker receives, in the reference
 * server's order of checks: first the schema (malformed JSON, duplicate keys, wrong types, values out of range:
 * 422), then the content (base64, image header and size, number and blankness of prompts: 400).
 */
public final class PredictRequestParser {

    /** The reference server's defaults (seed section 3). */
    static final double DEFAULT_THRESHOLD = 0.5;
    static final int DEFAULT_MAX_INSTANCES = 50;
    static final int MAX_INSTANCES_LIMIT = 200;

    private static final String MASK_FORMATS = Arrays.stream(MaskFormat.values()).map(MaskFormat::name)
            .collect(Collectors.joining(", "));

    private final RequestLimits limits;
    private final ObjectReader reader;
    private final ImageFirstTreeReader imageFirst;

    public PredictRequestParser(RequestLimits limits) {
        this.limits = limits;
        JsonFactory factory = JsonFactory.builder()
                // a base64 image is one long string: allow it up to the body limit
                .streamReadConstraints(StreamReadConstraints.builder()
                        .maxStringLength((int) Math.min(Integer.MAX_VALUE, limits.maxBodyBytes())).build())
                .build();
        factory.enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
        this.reader = new ObjectMapper(factory).reader()
                .with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
        this.imageFirst = new ImageFirstTreeReader(reader);
    }

    /**
     * The request the body describes.
     *
     * @param body      the HTTP body
     * @param requestId the id the request and its reply carry
     * @param deadline  when the caller stops waiting (the worker skips the request after it)
     * @throws ApiException 422 or 400 as described above
     */
    public SegmentationRequest parse(byte[] body, String requestId, Instant deadline) {
        return parse(body, fields -> requestId, deadline);
    }

    /**
     * The request a {@code POST /v1/jobs} body describes: a {@code /predict} body, checked the same way, with an
     * optional {@code job_id}; the request id is the job's id ({@link JobIds}). A job waits in Kafka for as long as
     * it must, so the request carries no deadline.
     *
     * @param idempotencyKey the {@code Idempotency-Key} header, null when absent
     * @throws ApiException 422 or 400 as {@link #parse(byte[], String, Instant)}, and for a malformed id
     */
    public SegmentationRequest parseJob(byte[] body, String idempotencyKey) {
        return parse(body, fields -> JobIds.choose(idempotencyKey, fields.optional(JobIds.FIELD)), null);
    }

    private SegmentationRequest parse(byte[] body, Function<JsonFields, String> requestId, Instant deadline) {
        JsonNode root = imageFirst.read(body).map(JsonNode.class::cast).orElseGet(() -> readJson(body));
        JsonFields fields = JsonFields.of(root, "");
        String id = requestId.apply(fields);
        JsonNode imageNode = root.get(ImageFirstTreeReader.IMAGE);
        String imageBase64 = imageNode != null && imageNode.isBinary() ? null
                : fields.requiredString(ImageFirstTreeReader.IMAGE);
        List<Prompt> prompts = PromptReader.read(fields.requiredArray("prompts"), "prompts");
        double threshold = fields.number("threshold", DEFAULT_THRESHOLD, 0, 1);
        int maxInstances = fields.integer("max_instances", DEFAULT_MAX_INSTANCES, 1, MAX_INSTANCES_LIMIT);
        MaskFormat maskFormat = fields.choice("mask_format", MaskFormat.png, PredictRequestParser::maskFormat,
                MASK_FORMATS);
        Map<String, String> metadata = metadata(fields);

        checkPrompts(prompts);
        byte[] image = imageBase64 == null ? ImageCheck.check(binary(imageNode), limits)
                : ImageCheck.decode(imageBase64, limits);
        return SegmentationRequest.newBuilder()
                .setRequestId(id)
                .setImage(ByteBuffer.wrap(image))
                .setImageUri(null)
                .setPrompts(prompts)
                .setThreshold((float) threshold)
                .setMaxInstances(maxInstances)
                .setMaskFormat(maskFormat)
                .setDeadline(deadline)
                .setMetadata(metadata)
                .build();
    }

    private static byte[] binary(JsonNode node) {
        try {
            return node.binaryValue();
        } catch (IOException e) {
            throw new IllegalStateException("a binary node without bytes", e);
        }
    }

    private JsonNode readJson(byte[] body) {
        try {
            JsonNode root = reader.readTree(body);
            if (root == null || root.isMissingNode()) {
                throw ApiException.unprocessable("body: expected a JSON object, got an empty body");
            }
            return root;
        } catch (JsonProcessingException e) {
            throw ApiException.unprocessable("body: malformed JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw ApiException.unprocessable("body: unreadable: " + e.getMessage());
        }
    }

    private void checkPrompts(List<Prompt> prompts) {
        if (prompts.isEmpty()) {
            throw ApiException.badRequest("prompts: at least one prompt is required");
        }
        if (prompts.size() > limits.maxPrompts()) {
            throw ApiException.badRequest("prompts: " + prompts.size() + " prompts, more than SAM3_MAX_PROMPTS="
                    + limits.maxPrompts());
        }
        for (int i = 0; i < prompts.size(); i++) {
            if (prompts.get(i).getText().isBlank()) {
                throw ApiException.badRequest("prompts[" + i + "]: empty prompt");
            }
            if (prompts.get(i).getText().length() > RequestBounds.MAX_PROMPT_CHARS) {
                throw ApiException.unprocessable("prompts[" + i + "]: " + prompts.get(i).getText().length()
                        + " characters; at most " + RequestBounds.MAX_PROMPT_CHARS + " are allowed");
            }
        }
    }

    /** Optional client key/value pairs, carried to the worker and echoed in the result. */
    private static Map<String, String> metadata(JsonFields fields) {
        JsonNode node = fields.optional("metadata");
        if (node == null) {
            return Map.of();
        }
        JsonFields entries = JsonFields.of(node, "metadata");
        Map<String, String> metadata = new HashMap<>();
        node.fieldNames().forEachRemaining(name -> metadata.put(name, entries.requiredString(name)));
        return metadata;
    }

    private static MaskFormat maskFormat(String name) {
        for (MaskFormat f : MaskFormat.values()) {
            if (f.name().equals(name)) {
                return f;
            }
        }
        return null;
    }
}
