package io.sam3stream.engine;

/** Why a request was not answered with instances, with the HTTP status the reference API gives for it. */
public enum ErrorCode {
    /** The image is not a decodable PNG/JPEG, or its size is out of bounds. */
    BAD_IMAGE(400),
    /** A side exceeds {@code SAM3_MAX_SIDE} or the pixel count exceeds {@code SAM3_MAX_PIXELS}. */
    IMAGE_TOO_LARGE(400),
    /** A prompt is empty or blank. */
    EMPTY_PROMPT(400),
    /** More prompts than {@code SAM3_MAX_PROMPTS}. */
    TOO_MANY_PROMPTS(400),
    /** A field has the wrong type or is out of range. */
    INVALID_FIELD(422),
    /** The request is larger than the configured message or body limit. */
    PAYLOAD_TOO_LARGE(413),
    /** Too many requests are waiting. */
    OVERLOADED(429),
    /** The request's deadline passed before it was answered. */
    DEADLINE_EXCEEDED(504),
    /** No worker is ready to serve. */
    UNAVAILABLE(503),
    /** An unexpected failure; the message carries the exception text. */
    INTERNAL(500);

    private final int httpStatus;

    ErrorCode(int httpStatus) {
        this.httpStatus = httpStatus;
    }

    public int httpStatus() {
        return httpStatus;
    }
}
