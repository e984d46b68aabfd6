package io.sam3stream.schemas;

import io.sam3stream.avro.ErrorCode;

/** The HTTP status each {@link ErrorCode} of a {@code SegmentationResult} renders as. */
public final class ErrorCodes {

    private ErrorCodes() {
    }

    /** The HTTP status of an ERROR result with this code. */
    public static int httpStatus(ErrorCode code) {
        return switch (code) {
            case BAD_REQUEST -> 400;
            case PAYLOAD_TOO_LARGE -> 413;
            case UNPROCESSABLE_ENTITY -> 422;
            case TOO_MANY_REQUESTS -> 429;
            case INTERNAL_ERROR -> 500;
            case SERVICE_UNAVAILABLE -> 503;
            case DEADLINE_EXCEEDED -> 504;
        };
    }
}
