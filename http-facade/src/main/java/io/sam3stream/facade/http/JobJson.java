package io.sam3stream.facade.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.util.RawValue;
import io.sam3stream.avro.ErrorDetail;
import io.sam3stream.avro.SegmentationResult;
import io.sam3stream.avro.Status;
import io.sam3stream.facade.jobs.JobRecord;
import io.sam3stream.schemas.ErrorCodes;
import io.sam3stream.schemas.json.ResultRenderer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * The JSON of a job: {@code job_id}, {@code status} ({@code pending}, {@code done} or {@code error}),
 * {@code submitted_at} and {@code finished_at} (ISO-8601, null when unknown), then {@code result} (the
 * {@code /predict} body, rendered by the contract's {@link ResultRenderer}) or {@code error} ({@code error},
 * {@code detail} and the {@code http_status} a {@code /predict} would have answered), and {@code links}.
 */
public final class JobJson {

    /** Path of the job resources; a job is at {@code PATH + "/" + id}. */
    static final String PATH = "/v1/jobs";

    private final ObjectMapper mapper;
    private final ResultRenderer renderer;
    private final Deserializer<SegmentationResult> results;
    private final String resultsTopic;

    /**
     * @param results      reads the stored result bytes
     * @param resultsTopic the topic those bytes were written for (their subject)
     */
    public JobJson(ObjectMapper mapper, ResultRenderer renderer, Deserializer<SegmentationResult> results,
            String resultsTopic) {
        this.mapper = mapper;
        this.renderer = renderer;
        this.results = results;
        this.resultsTopic = resultsTopic;
    }

    /** A job's location. */
    static String location(String id) {
        return PATH + "/" + id;
    }

    /** The body of {@code GET /v1/jobs/{id}}. */
    byte[] job(String id, JobRecord job) {
        ObjectNode json = head(id, job);
        if (job.finished()) {
            SegmentationResult result = decode(job.result());
            if (result.getStatus() == Status.OK) {
                json.put("status", "done");
                json.putRawValue("result", new RawValue(new String(renderer.render(result), StandardCharsets.UTF_8)));
            } else {
                json.put("status", "error");
                ErrorDetail error = result.getError();
                ApiException api = ApiException.ofError(error);
                json.putObject("error").put("error", api.error()).put("detail", api.detail())
                        .put("http_status", error == null ? api.status() : ErrorCodes.httpStatus(error.getCode()));
            }
        }
        return write(links(json, id));
    }

    /** The body of {@code 202 Accepted}: the job's id, its status now and where to read it. */
    byte[] accepted(String id, JobRecord job) {
        ObjectNode json = head(id, job);
        if (job.finished()) {
            json.put("status", decode(job.result()).getStatus() == Status.OK ? "done" : "error");
        }
        return write(links(json, id));
    }

    private ObjectNode head(String id, JobRecord job) {
        ObjectNode json = mapper.createObjectNode();
        json.put("job_id", id);
        json.put("status", "pending");
        json.put("submitted_at", iso(job.submittedAt()));
        json.put("finished_at", iso(job.finishedAt()));
        return json;
    }

    private static ObjectNode links(ObjectNode json, String id) {
        json.putObject("links").put("self", location(id));
        return json;
    }

    private SegmentationResult decode(byte[] bytes) {
        try {
            SegmentationResult result = results.deserialize(resultsTopic, bytes);
            if (result == null) {
                throw ApiException.internal("the stored result is empty");
            }
            return result;
        } catch (ApiException e) {
            throw e;
        } catch (RuntimeException e) {
            throw ApiException.unavailable("the stored result cannot be read now: " + e.getMessage());
        }
    }

    private byte[] write(ObjectNode json) {
        try {
            return mapper.writeValueAsBytes(json);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree failed to serialize", e);
        }
    }

    private static String iso(Instant at) {
        return at == null ? null : at.toString();
    }
}
