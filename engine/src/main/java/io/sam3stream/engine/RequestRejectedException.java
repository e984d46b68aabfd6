package io.sam3stream.engine;

/** A request that cannot be served as asked; the code says which HTTP status or ERROR result it becomes. */
public class RequestRejectedException extends RuntimeException {

    private final ErrorCode code;

    public RequestRejectedException(ErrorCode code, String message) {
        super(message);
        this.code = code;
    }

    public RequestRejectedException(ErrorCode code, String message, Throwable cause) {
        super(message, cause);
        this.code = code;
    }

    public ErrorCode code() {
        return code;
    }
}
