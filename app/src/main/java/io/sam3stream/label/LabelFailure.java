package io.sam3stream.label;

/** An image that could not be labelled, with the reason recorded beside it in the results log. */
public final class LabelFailure extends RuntimeException {

    /**
     * @param reason what went wrong, as a user reads it (the server's error code and message where there is one)
     */
    public LabelFailure(String reason) {
        super(reason);
    }

    public LabelFailure(String reason, Throwable cause) {
        super(reason, cause);
    }
}
