package io.sam3stream.schemas.testing;

import io.sam3stream.avro.Box;
import io.sam3stream.avro.BoxLabel;
import io.sam3stream.avro.CocoRle;
import io.sam3stream.avro.ErrorCode;
import io.sam3stream.avro.ErrorDetail;
import io.sam3stream.avro.ExemplarBox;
import io.sam3stream.avro.Instance;
import io.sam3stream.avro.MaskFormat;
import io.sam3stream.avro.ModelIdentity;
import io.sam3stream.avro.Prompt;
import io.sam3stream.avro.PromptResult;
import io.sam3stream.avro.SegmentationRequest;
import io.sam3stream.avro.SegmentationResult;
import io.sam3stream.avro.Status;
import io.sam3stream.avro.Timing;
import io.sam3stream.avro.WorkerLimits;
import io.sam3stream.avro.WorkerState;
import io.sam3stream.avro.WorkerStatus;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** Records with every field set, so that a round trip exercises every type of the schemas. */
public final class SampleRecords {

    private SampleRecords() {
    }

    /** A request with inline image bytes, two prompts (one with exemplar boxes), a deadline and metadata. */
    public static SegmentationRequest request() {
        return SegmentationRequest.newBuilder()
                .setRequestId("req-0001")
                .setImage(ByteBuffer.wrap(new byte[] {(byte) 0x89, 'P', 'N', 'G', 0, 1, 2, (byte) 0xff}))
                .setPrompts(List.of(
                        Prompt.newBuilder().setText("car").build(),
                        Prompt.newBuilder().setText("yellow school bus").setBoxes(List.of(
                                new ExemplarBox(new Box(10.5f, 20f, 110f, 220.25f), BoxLabel.positive),
                                new ExemplarBox(new Box(300f, 40f, 350f, 90f), BoxLabel.negative))).build()))
                .setThreshold(0.35f)
                .setMaxInstances(7)
                .setMaskFormat(MaskFormat.rle_compressed)
                .setDeadline(Instant.ofEpochMilli(1_790_000_000_123L))
                .setMetadata(Map.of("camera", "north-gate", "frame", "4711"))
                .build();
    }

    /** An OK result with one instance per mask encoding. */
    public static SegmentationResult okResult() {
        Instance png = Instance.newBuilder()
                .setScore(0.978f)
                .setBoxXyxy(new Box(12f, 30.5f, 640f, 470f))
                .setMaskArea(123_456L)
                .setMaskPng(ByteBuffer.wrap(new byte[] {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'}))
                .build();
        Instance rle = Instance.newBuilder()
                .setScore(0.61f)
                .setBoxXyxy(new Box(0f, 0f, 3f, 2f))
                .setMaskArea(4L)
                .setMaskRle(new CocoRle(List.of(2, 3), List.of(1, 2, 1, 2)))
                .build();
        Instance compressedRle = Instance.newBuilder()
                .setScore(0.52f)
                .setBoxXyxy(new Box(1f, 1f, 2f, 2f))
                .setMaskArea(1L)
                .setMaskRle(new CocoRle(List.of(2, 3), "31107"))
                .build();
        return SegmentationResult.newBuilder()
                .setRequestId("req-0001")
                .setStatus(Status.OK)
                .setWidth(1920)
                .setHeight(1080)
                .setInputSize(1008)
                .setThreshold(0.35f)
                .setMaskFormat(MaskFormat.png)
                .setResults(List.of(PromptResult.newBuilder()
                        .setPrompt("car")
                        .setPresence(0.99f)
                        .setNumInstances(3)
                        .setInstances(List.of(png, rle, compressedRle))
                        .build()))
                .setTimingMs(new Timing(3.5, 41.0, 124.0, 50_100.0, 50_100.0, 310.0, 50_575.0))
                .setWorkerId("worker-a")
                .setModel(new ModelIdentity("facebook/sam3", "3c879f39826c281e95690f02c7821c4de09afae7"))
                .setDevice("cpu")
                .setMetadata(Map.of("camera", "north-gate"))
                .build();
    }

    /** An ERROR result as a worker produces it for an image it cannot decode. */
    public static SegmentationResult errorResult() {
        return SegmentationResult.newBuilder()
                .setRequestId("req-0002")
                .setStatus(Status.ERROR)
                .setError(new ErrorDetail(ErrorCode.BAD_REQUEST, "image is neither PNG nor JPEG"))
                .setMaskFormat(MaskFormat.none)
                .setWorkerId("worker-a")
                .build();
    }

    /** A READY worker's heartbeat. */
    public static WorkerStatus workerStatus() {
        return WorkerStatus.newBuilder()
                .setWorkerId("worker-a")
                .setState(WorkerState.READY)
                .setBackend("cpu")
                .setDevice("cpu")
                .setModelRepo("facebook/sam3")
                .setModelRevision("3c879f39826c281e95690f02c7821c4de09afae7")
                .setLimits(new WorkerLimits(4096, 16_777_216L, 8, 16_777_216))
                .setHeartbeatIntervalMs(2000)
                .setTimestamp(Instant.ofEpochMilli(1_700_000_000_000L))
                .build();
    }
}
