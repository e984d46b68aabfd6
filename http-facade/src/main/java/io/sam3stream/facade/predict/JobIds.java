package io.sam3stream.facade.predict;

import com.fasterxml.jackson.databind.JsonNode;
import io.sam3stream.facade.http.ApiException;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * The id of a job: the client's {@code Idempotency-Key} header or {@code job_id} field, else a fresh UUID. A
 * client-chosen id is what makes a retried submission the same job. It becomes the request id, the Kafka key and a
 * URL path segment, so it is limited to characters that need no escaping anywhere.
 */
public final class JobIds {

    /** The body field naming the job. */
    public static final String FIELD = "job_id";
    /** The header naming the job (the IETF idempotency-key draft's name). */
    public static final String HEADER = "Idempotency-Key";

    private static final Pattern ALLOWED = Pattern.compile("[A-Za-z0-9._~:-]{1,128}");

    private JobIds() {
    }

    /** Whether {@code id} could name a job (a path segment that cannot be one gets 404, not 400). */
    public static boolean isValid(String id) {
        return id != null && ALLOWED.matcher(id).matches();
    }

    /**
     * The job's id.
     *
     * @param header the {@code Idempotency-Key} header, null when absent
     * @param field  the body's {@code job_id}, null when absent
     * @throws ApiException 400 for a malformed header, 422 for a malformed field or one that differs from the header
     */
    static String choose(String header, JsonNode field) {
        if (header != null && !isValid(header)) {
            throw ApiException.badRequest(HEADER + ": " + rule());
        }
        if (field == null) {
            return header != null ? header : UUID.randomUUID().toString();
        }
        if (!field.isTextual() || !isValid(field.textValue())) {
            throw ApiException.unprocessable(FIELD + ": " + rule());
        }
        if (header != null && !header.equals(field.textValue())) {
            throw ApiException.unprocessable(FIELD + " and the " + HEADER + " header name different jobs");
        }
        return field.textValue();
    }

    private static String rule() {
        return "must be 1 to 128 characters among A-Z a-z 0-9 . _ ~ : -";
    }
}
