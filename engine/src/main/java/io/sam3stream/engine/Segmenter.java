package io.sam3stream.engine;

import io.sam3stream.device.EncoderTrace;
import java.util.Optional;

/**
 * One request in, one result out. The three stages can run on different threads so that a caller can overlap the
 * CPU work of one request with the device work of another: {@link #prepare} and {@link #finish} are pure host
 * work; {@link #infer} uses the model and must be called by one thread at a time (the device owner).
 */
public interface Segmenter extends AutoCloseable {

    /**
     * Validates the request and decodes and preprocesses its image (host CPU).
     *
     * @throws RequestRejectedException if the request cannot be served as asked
     */
    PreparedRequest prepare(SegmentRequest request);

    /** Runs the model: image features (from cache when the same pixels were seen recently) and every prompt. */
    Inference infer(PreparedRequest prepared);

    /** Turns the model outputs into the response: thresholds, boxes, mask upsampling and encoding (host CPU). */
    SegmentResponse finish(Inference inference);

    /** All three stages on the calling thread. */
    default SegmentResponse segment(SegmentRequest request) {
        return finish(infer(prepare(request)));
    }

    /** What serves: backend, device, model identity. */
    EngineInfo info();

    /**
     * How the fusion encoder's runs went through device traces, as of now; empty where the encoder runs in DJL.
     * A worker on a p150a reads it after warm-up to decide whether it may report READY.
     */
    default Optional<EncoderTrace> encoderTrace() {
        return Optional.empty();
    }

    @Override
    void close();
}
