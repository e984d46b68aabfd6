package io.sam3stream.kafka;

import io.sam3stream.config.Settings;
import io.sam3stream.engine.EngineInfo;
import io.sam3stream.engine.ErrorCode;
import io.sam3stream.engine.Inference;
import io.sam3stream.engine.PreparedRequest;
import io.sam3stream.engine.RequestRejectedException;
import io.sam3stream.engine.SegmentRequest;
import io.sam3stream.engine.SegmentResponse;
import io.sam3stream.engine.Segmenter;

/** TEMPORARY scaffold until the engine lands: refuses everything. */
final class TinyEngine implements Segmenter {

    static Segmenter load(Settings settings) {
        return new TinyEngine();
    }

    @Override
    public PreparedRequest prepare(SegmentRequest request) {
        if (request.prompts().isEmpty()) {
            throw new RequestRejectedException(ErrorCode.EMPTY_PROMPT, "at least one prompt is required");
        }
        throw new RequestRejectedException(ErrorCode.BAD_IMAGE, "scaffold");
    }

    @Override
    public Inference infer(PreparedRequest prepared) {
        throw new UnsupportedOperationException();
    }

    @Override
    public SegmentResponse finish(Inference inference) {
        throw new UnsupportedOperationException();
    }

    @Override
    public EngineInfo info() {
        return new EngineInfo("cpu", "cpu", "sam3-tiny.pt", "local", "x", 168);
    }

    @Override
    public void close() {}
}
