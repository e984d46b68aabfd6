package io.sam3stream.kafka;

import io.sam3stream.avro.Box;
import io.sam3stream.avro.CocoRle;
import io.sam3stream.avro.ErrorCode;
import io.sam3stream.avro.ErrorDetail;
import io.sam3stream.avro.Instance;
import io.sam3stream.avro.MaskFormat;
import io.sam3stream.avro.ModelIdentity;
import io.sam3stream.avro.PromptResult;
import io.sam3stream.avro.SegmentationRequest;
import io.sam3stream.avro.SegmentationResult;
import io.sam3stream.avro.Status;
import io.sam3stream.avro.Timing;
import io.sam3stream.engine.EncodedMask;
import io.sam3stream.engine.EngineInfo;
import io.sam3stream.engine.SegmentResponse;
import io.sam3stream.engine.StageTimings;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;

/**
 * Builds the Avro {@link SegmentationResult}s of one worker: the engine's response field for field, or an
 * {@code ERROR} with its code, always stamped with the worker, model and device that answered.
 */
public final class ResultFactory {

    private final String workerId;
    private final ModelIdentity model;
    private final String device;

    /**
     * @param workerId the answering worker
     * @param engine   the engine that answers
     */
    public ResultFactory(String workerId, EngineInfo engine) {
        this.workerId = workerId;
        this.model = new ModelIdentity(engine.modelRepo(), engine.modelRevision());
        this.device = engine.device();
    }

    /**
     * The OK result of {@code request}.
     *
     * @param queueMs from the request record's timestamp to the worker taking it up
     * @param totalMs from the worker taking it up to the result being ready
     */
    public SegmentationResult ok(SegmentationRequest request, SegmentResponse response, double queueMs,
            double totalMs) {
        return stamped(request)
                .setStatus(Status.OK)
                .setError(null)
                .setWidth(response.width())
                .setHeight(response.height())
                .setInputSize(response.inputSize())
                .setThreshold(response.threshold())
                .setMaskFormat(MaskFormat.valueOf(response.maskFormat().wireName()))
                .setResults(response.results().stream().map(ResultFactory::promptResult).toList())
                .setTimingMs(timing(response.timings(), queueMs, totalMs))
                .build();
    }

    /**
     * The ERROR result of {@code request}.
     *
     * @param code    the contract's code (the engine's refusals map by name, {@link #contractCode})
     * @param message what went wrong; the code's name when null
     * @param queueMs from the request record's timestamp to the worker taking it up
     * @param totalMs from the worker taking it up to the failure
     */
    public SegmentationResult error(SegmentationRequest request, ErrorCode code, String message, double queueMs,
            double totalMs) {
        return stamped(request)
                .setStatus(Status.ERROR)
                .setError(new ErrorDetail(code, message != null ? message : code.name()))
                .setThreshold(request.getThreshold())
                .setMaskFormat(request.getMaskFormat())
                .setResults(List.of())
                .setTimingMs(Timing.newBuilder().setQueue(queueMs).setTotal(totalMs).build())
                .build();
    }

    /** The contract's code of an engine refusal: the symbol of the same name (the two enums share them). */
    static ErrorCode contractCode(io.sam3stream.engine.ErrorCode engineCode) {
        return ErrorCode.valueOf(engineCode.name());
    }

    private SegmentationResult.Builder stamped(SegmentationRequest request) {
        return SegmentationResult.newBuilder()
                .setRequestId(request.getRequestId())
                .setWorkerId(workerId)
                .setModel(model)
                .setDevice(device)
                .setMetadata(request.getMetadata());
    }

    private static Timing timing(StageTimings t, double queueMs, double totalMs) {
        return Timing.newBuilder()
                .setQueue(queueMs)
                .setDecode(t.decode())
                .setPreprocess(t.preprocess())
                .setForward(t.forward())
                .setForwardPerPrompt(t.forwardPerPrompt())
                .setPostprocess(t.postprocess())
                .setTotal(totalMs)
                .build();
    }

    private static PromptResult promptResult(SegmentResponse.PromptResult r) {
        List<Instance> instances = r.instances().stream().map(ResultFactory::instance).toList();
        return new PromptResult(r.prompt(), r.presence(), instances.size(), instances);
    }

    private static Instance instance(SegmentResponse.Instance i) {
        float[] b = i.boxXyxy();
        Instance.Builder instance = Instance.newBuilder()
                .setScore(i.score())
                .setBoxXyxy(new Box(b[0], b[1], b[2], b[3]))
                .setMaskArea(i.mask() == null ? null : i.maskArea())
                .setMaskPng(null)
                .setMaskRle(null);
        if (i.mask() instanceof EncodedMask.Png png) {
            instance.setMaskPng(ByteBuffer.wrap(png.bytes()));
        } else if (i.mask() instanceof EncodedMask.Rle rle) {
            instance.setMaskRle(new CocoRle(List.of(rle.height(), rle.width()),
                    Arrays.stream(rle.counts()).boxed().toList()));
        } else if (i.mask() instanceof EncodedMask.CompressedRle rle) {
            instance.setMaskRle(new CocoRle(List.of(rle.height(), rle.width()), rle.counts()));
        }
        return instance.build();
    }
}
