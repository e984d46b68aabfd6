package io.sam3stream.facade.http;

import io.sam3stream.avro.ErrorCode;
import io.sam3stream.avro.ErrorDetail;
import io.sam3stream.schemas.ErrorCodes;
import java.util.Map;

/**
 * A request that ends in an error response {@code {"error": error, "detail": detail}} with the given HTTP status.
 * Thrown anywhere while a request is handled (or completing its future exceptionally); {@link ErrorResponses} is
 * the one place that turns it into the response.
 */
public final class ApiException extends RuntimeException {

    private final int status;
    private final String error;
    private final Map<String, String> headers;

    private ApiException(int status, String error, String detail, Map<String, String> headers) {
        super(detail, null, false, false); // an expected outcome: no stack trace to fill
        this.status = status;
        this.error = error;
        this.headers = Map.copyOf(headers);
    }

    /** An error of the result contract: its status is the one the code renders as everywhere. */
    public static ApiException of(ErrorCode code, String detail) {
        return new ApiException(ErrorCodes.httpStatus(code), code.name(), detail, Map.of());
    }

    /**
     * The error response of a worker's ERROR result: its code and message, or a 500 when the result carries no
     * error detail.
     */
    public static ApiException ofError(ErrorDetail error) {
        return error == null ? internal("the worker answered ERROR without a reason")
                : of(error.getCode(), error.getMessage());
    }

    /** 400: the request is well-formed but its content cannot be served (image, prompts). */
    public static ApiException badRequest(String detail) {
        return of(ErrorCode.BAD_REQUEST, detail);
    }

    /** 422: the body violates the request schema (malformed JSON, a wrong type, a value out of range). */
    public static ApiException unprocessable(String detail) {
        return of(ErrorCode.UNPROCESSABLE_ENTITY, detail);
    }

    /** 413: the body or the record it becomes is larger than the configured limit. */
    public static ApiException payloadTooLarge(String detail) {
        return of(ErrorCode.PAYLOAD_TOO_LARGE, detail);
    }

    /** 503: nothing can serve the request now; retrying later may succeed. */
    public static ApiException unavailable(String detail) {
        return of(ErrorCode.SERVICE_UNAVAILABLE, detail);
    }

    /** 500: an unexpected failure; the detail is the error's text. */
    public static ApiException internal(String detail) {
        return of(ErrorCode.INTERNAL_ERROR, detail);
    }

    /** 429 with a {@code Retry-After} of the given seconds. */
    public static ApiException tooManyRequests(String detail, long retryAfterSeconds) {
        ErrorCode code = ErrorCode.TOO_MANY_REQUESTS;
        return new ApiException(ErrorCodes.httpStatus(code), code.name(), detail,
                Map.of("Retry-After", Long.toString(retryAfterSeconds)));
    }

    /** 401 with the {@code WWW-Authenticate} challenge of bearer tokens (RFC 6750). */
    public static ApiException unauthorized(String detail) {
        return new ApiException(401, "UNAUTHORIZED", detail, Map.of("WWW-Authenticate", "Bearer"));
    }

    /** An HTTP-level error that no result code describes (404, 405, ...). */
    public static ApiException http(int status, String error, String detail) {
        return new ApiException(status, error, detail, Map.of());
    }

    public int status() {
        return status;
    }

    /** The machine-readable error name. */
    public String error() {
        return error;
    }

    /** The human-readable explanation. */
    public String detail() {
        return getMessage();
    }

    /** Response headers that belong to this error. */
    public Map<String, String> headers() {
        return headers;
    }
}
