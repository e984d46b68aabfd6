package io.sam3stream.kafka;

import io.sam3stream.avro.BoxLabel;
import io.sam3stream.avro.ExemplarBox;
import io.sam3stream.avro.Prompt;
import io.sam3stream.avro.SegmentationRequest;
import io.sam3stream.engine.BoxExemplar;
import io.sam3stream.engine.ErrorCode;
import io.sam3stream.engine.MaskFormat;
import io.sam3stream.engine.PromptSpec;
import io.sam3stream.engine.RequestRejectedException;
import io.sam3stream.engine.SegmentRequest;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Instant;
import java.util.List;

/**
 * Turns an Avro {@link SegmentationRequest} into the engine's {@link SegmentRequest}: the image from the record or
 * from its claim check, the prompts with their exemplar boxes, and the request's options. The checks that belong to
 * the record rather than the engine (exactly one image source, the deadline) happen here; the engine's
 * {@code prepare} checks the rest, so both paths into the engine (HTTP and Kafka) share the same limits.
 */
public final class RequestTranslator {

    private final ClaimCheck claimChecks;
    private final Clock clock;

    /**
     * @param claimChecks reads {@code image_uri} images
     * @param clock       judges deadlines
     */
    public RequestTranslator(ClaimCheck claimChecks, Clock clock) {
        this.claimChecks = claimChecks;
        this.clock = clock;
    }

    /**
     * The engine request.
     *
     * @throws RequestRejectedException when the record asks for something that cannot be served
     */
    public SegmentRequest toEngine(SegmentationRequest request) {
        requireBeforeDeadline(request);
        return new SegmentRequest(image(request), request.getPrompts().stream().map(RequestTranslator::prompt).toList(),
                request.getThreshold(), request.getMaxInstances(),
                MaskFormat.fromWireName(request.getMaskFormat().name()));
    }

    /**
     * Refuses a request whose deadline has passed: nobody waits for its answer any more, so the model does not run.
     *
     * @throws RequestRejectedException {@link ErrorCode#DEADLINE_EXCEEDED}
     */
    public void requireBeforeDeadline(SegmentationRequest request) {
        Instant deadline = request.getDeadline();
        if (deadline != null && !clock.instant().isBefore(deadline)) {
            throw new RequestRejectedException(ErrorCode.DEADLINE_EXCEEDED,
                    "the request's deadline " + deadline + " passed before a worker could run it");
        }
    }

    private byte[] image(SegmentationRequest request) {
        ByteBuffer inline = request.getImage();
        String uri = request.getImageUri();
        if ((inline == null) == (uri == null)) {
            throw new RequestRejectedException(ErrorCode.BAD_REQUEST,
                    "exactly one of image and image_uri must be set; " + (uri == null ? "neither is" : "both are"));
        }
        if (uri != null) {
            return claimChecks.read(uri);
        }
        byte[] bytes = new byte[inline.remaining()];
        inline.duplicate().get(bytes);
        return bytes;
    }

    private static PromptSpec prompt(Prompt prompt) {
        List<BoxExemplar> boxes = prompt.getBoxes().stream().map(RequestTranslator::box).toList();
        return new PromptSpec(prompt.getText(), boxes);
    }

    private static BoxExemplar box(ExemplarBox box) {
        return new BoxExemplar(box.getBoxXyxy().getX0(), box.getBoxXyxy().getY0(), box.getBoxXyxy().getX1(),
                box.getBoxXyxy().getY1(), box.getLabel() == BoxLabel.positive);
    }
}
