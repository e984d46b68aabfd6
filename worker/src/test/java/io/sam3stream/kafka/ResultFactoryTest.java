package io.sam3stream.kafka;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.sam3stream.avro.Box;
import io.sam3stream.avro.ErrorCode;
import io.sam3stream.avro.Instance;
import io.sam3stream.avro.Prompt;
import io.sam3stream.avro.SegmentationRequest;
import io.sam3stream.avro.SegmentationResult;
import io.sam3stream.avro.Status;
import io.sam3stream.engine.EncodedMask;
import io.sam3stream.engine.EngineInfo;
import io.sam3stream.engine.MaskFormat;
import io.sam3stream.engine.SegmentResponse;
import io.sam3stream.engine.StageTimings;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ResultFactoryTest {

    private final ResultFactory factory = new ResultFactory("worker-7",
            new EngineInfo("cpu", "cpu:fp32", "facebook/sam3", "abc123", "/w/sam3.pt", 1008, "fp32: SAM3_PRECISION=fp32"));

    private static final SegmentationRequest REQUEST = SegmentationRequest.newBuilder()
            .setRequestId("r-1")
            .setImage(ByteBuffer.wrap(new byte[] {1}))
            .setPrompts(List.of(new Prompt("cat", List.of())))
            .setThreshold(0.3f)
            .setMaskFormat(io.sam3stream.avro.MaskFormat.rle)
            .setMetadata(Map.of("camera", "7"))
            .build();

    @Test
    void everyEngineErrorCodeIsTheContractsCodeOfTheSameName() {
        for (io.sam3stream.engine.ErrorCode engineCode : io.sam3stream.engine.ErrorCode.values()) {
            assertEquals(engineCode.name(), ResultFactory.contractCode(engineCode).name());
        }
        assertEquals(ErrorCode.UNPROCESSABLE_ENTITY,
                ResultFactory.contractCode(io.sam3stream.engine.ErrorCode.UNPROCESSABLE_ENTITY));
    }

    @Test
    void anOkResultCarriesTheResponseFieldForFieldWithTheWorkersIdentity() {
        SegmentResponse response = new SegmentResponse(200, 150, 1008, 0.3f, MaskFormat.RLE, List.of(
                new SegmentResponse.PromptResult("cat", 0.9f, List.of(
                        new SegmentResponse.Instance(0.8f, new float[] {1, 2, 30, 40}, 77,
                                new EncodedMask.Rle(150, 200, new int[] {5, 77, 29918})),
                        new SegmentResponse.Instance(0.6f, new float[] {3, 4, 5, 6}, 9,
                                new EncodedMask.Png(new byte[] {(byte) 0x89, 'P'})),
                        new SegmentResponse.Instance(0.55f, new float[] {0, 0, 1, 1}, 1,
                                new EncodedMask.CompressedRle(150, 200, "a1b2")),
                        new SegmentResponse.Instance(0.51f, new float[] {7, 7, 8, 8}, 1, null)))),
                new StageTimings(1, 2, 30, 30, 4, 37));

        SegmentationResult r = factory.ok(REQUEST, response, 12.5, 40.0);

        assertEquals("r-1", r.getRequestId());
        assertEquals(Status.OK, r.getStatus());
        assertNull(r.getError());
        assertEquals(200, r.getWidth());
        assertEquals(150, r.getHeight());
        assertEquals(1008, r.getInputSize());
        assertEquals(0.3f, r.getThreshold());
        assertEquals(io.sam3stream.avro.MaskFormat.rle, r.getMaskFormat());
        assertEquals("worker-7", r.getWorkerId());
        assertEquals("facebook/sam3", r.getModel().getRepo());
        assertEquals("abc123", r.getModel().getRevision());
        assertEquals("cpu:fp32", r.getDevice());
        assertEquals(Map.of("camera", "7"), r.getMetadata());
        assertEquals(List.of(12.5, 1.0, 2.0, 30.0, 30.0, 4.0, 40.0), List.of(r.getTimingMs().getQueue(),
                r.getTimingMs().getDecode(), r.getTimingMs().getPreprocess(), r.getTimingMs().getForward(),
                r.getTimingMs().getForwardPerPrompt(), r.getTimingMs().getPostprocess(), r.getTimingMs().getTotal()));

        assertEquals(1, r.getResults().size());
        assertEquals("cat", r.getResults().get(0).getPrompt());
        assertEquals(0.9f, r.getResults().get(0).getPresence());
        assertEquals(4, r.getResults().get(0).getNumInstances());
        List<Instance> instances = r.getResults().get(0).getInstances();
        assertEquals(new Box(1f, 2f, 30f, 40f), instances.get(0).getBoxXyxy());
        assertEquals(0.8f, instances.get(0).getScore());
        assertEquals(77L, instances.get(0).getMaskArea());
        assertEquals(List.of(150, 200), instances.get(0).getMaskRle().getSize());
        assertEquals(List.of(5, 77, 29918), instances.get(0).getMaskRle().getCounts());
        assertNull(instances.get(0).getMaskPng());
        assertArrayEquals(new byte[] {(byte) 0x89, 'P'}, bytes(instances.get(1).getMaskPng()));
        assertNull(instances.get(1).getMaskRle());
        assertEquals("a1b2", instances.get(2).getMaskRle().getCounts());
        assertNull(instances.get(3).getMaskArea());
        assertNull(instances.get(3).getMaskPng());
        assertNull(instances.get(3).getMaskRle());
    }

    @Test
    void anErrorResultEchoesTheRequestAndCarriesNoInstances() {
        SegmentationResult r = factory.error(REQUEST, ErrorCode.UNPROCESSABLE_ENTITY, "threshold must lie in [0, 1]", 3.0, 4.0);
        assertEquals(Status.ERROR, r.getStatus());
        assertEquals(ErrorCode.UNPROCESSABLE_ENTITY, r.getError().getCode());
        assertEquals("threshold must lie in [0, 1]", r.getError().getMessage());
        assertEquals(List.of(), r.getResults());
        assertEquals(0.3f, r.getThreshold());
        assertEquals(io.sam3stream.avro.MaskFormat.rle, r.getMaskFormat());
        assertEquals(0, r.getWidth());
        assertEquals("worker-7", r.getWorkerId());
        assertEquals(Map.of("camera", "7"), r.getMetadata());
        assertEquals(3.0, r.getTimingMs().getQueue());
        assertEquals(4.0, r.getTimingMs().getTotal());
        assertEquals(0.0, r.getTimingMs().getForward());
    }

    private static byte[] bytes(ByteBuffer buffer) {
        byte[] out = new byte[buffer.remaining()];
        buffer.duplicate().get(out);
        return out;
    }
}
