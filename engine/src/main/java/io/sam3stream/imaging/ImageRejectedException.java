package io.sam3stream.imaging;

/**
 * An encoded image that cannot be accepted. Carries a machine-readable {@link RejectionReason} and a message meant
 * for the client ("image is 5000x300 pixels; the longest side allowed is 4096").
 */
public class ImageRejectedException extends RuntimeException {

    private final RejectionReason reason;

    public ImageRejectedException(RejectionReason reason, String message) {
        super(message);
        this.reason = reason;
    }

    public ImageRejectedException(RejectionReason reason, String message, Throwable cause) {
        super(message, cause);
        this.reason = reason;
    }

    public RejectionReason reason() {
        return reason;
    }
}
