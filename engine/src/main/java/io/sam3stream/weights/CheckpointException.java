package io.sam3stream.weights;

/** A checkpoint that cannot be found, read or trusted. The message says which and why. */
public class CheckpointException extends RuntimeException {
    public CheckpointException(String message) {
        super(message);
    }

    public CheckpointException(String message, Throwable cause) {
        super(message, cause);
    }
}
