package io.sam3stream.engine;

/**
 * A validated request with its image decoded and preprocessed to the model input, ready for the device.
 * Produced by {@link Segmenter#prepare}; consumed by {@link Segmenter#infer}.
 */
public final class PreparedRequest {

    final SegmentRequest request;
    final int width;
    final int height;
    final float[] modelInput;
    final String pixelDigest;
    final long startNanos;
    final double decodeMs;
    final double preprocessMs;

    PreparedRequest(SegmentRequest request, int width, int height, float[] modelInput, String pixelDigest,
            long startNanos, double decodeMs, double preprocessMs) {
        this.request = request;
        this.width = width;
        this.height = height;
        this.modelInput = modelInput;
        this.pixelDigest = pixelDigest;
        this.startNanos = startNanos;
        this.decodeMs = decodeMs;
        this.preprocessMs = preprocessMs;
    }

    /** The request as given. */
    public SegmentRequest request() {
        return request;
    }

    /** Milliseconds the image took to decode. */
    public double decodeMs() {
        return decodeMs;
    }

    /** Milliseconds the decoded image took to resize and normalise to the model input. */
    public double preprocessMs() {
        return preprocessMs;
    }

    /** Original image width in pixels. */
    public int width() {
        return width;
    }

    /** Original image height in pixels. */
    public int height() {
        return height;
    }
}
