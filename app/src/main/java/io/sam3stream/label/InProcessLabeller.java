package io.sam3stream.label;

import io.sam3stream.engine.MaskFormat;
import io.sam3stream.engine.PromptSpec;
import io.sam3stream.engine.RequestRejectedException;
import io.sam3stream.engine.Sam3Segmenter;
import io.sam3stream.engine.SegmentRequest;
import io.sam3stream.engine.SegmentResponse;
import java.io.IOException;
import java.nio.file.Files;
import java.util.concurrent.CompletableFuture;

/**
 * Labels with an engine in this process, one image at a time on the caller's thread: the engine already uses every
 * core for one forward, so running two at once would only make both slower.
 */
public final class InProcessLabeller implements Labeller {

    private final Sam3Segmenter engine;
    private final PredictJson json;

    /** Takes ownership of {@code engine}: {@link #close()} closes it. */
    public InProcessLabeller(Sam3Segmenter engine) {
        this.engine = engine;
        this.json = new PredictJson(engine.info());
    }

    @Override
    public CompletableFuture<byte[]> label(DatasetImage image, LabelQuery query) {
        try {
            byte[] bytes = Files.readAllBytes(image.path());
            SegmentRequest request = new SegmentRequest(bytes, query.prompts().stream().map(PromptSpec::text).toList(),
                    query.threshold(), query.maxInstances(), MaskFormat.fromWireName(LabelQuery.MASK_FORMAT));
            SegmentResponse response = engine.segment(request);
            return CompletableFuture.completedFuture(json.render(image.path(), request, response));
        } catch (RequestRejectedException e) {
            return CompletableFuture.failedFuture(new LabelFailure(e.code() + ": " + e.getMessage()));
        } catch (IOException e) {
            return CompletableFuture.failedFuture(new LabelFailure("cannot read the image: " + e.getMessage(), e));
        }
    }

    @Override
    public int concurrency() {
        return 1;
    }

    @Override
    public String describe() {
        return "the engine in this process";
    }

    @Override
    public void close() {
        engine.close();
    }
}
