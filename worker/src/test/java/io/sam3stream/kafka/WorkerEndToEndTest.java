package io.sam3stream.kafka;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sam3stream.avro.Box;
import io.sam3stream.avro.BoxLabel;
import io.sam3stream.avro.ErrorCode;
import io.sam3stream.avro.ExemplarBox;
import io.sam3stream.avro.Instance;
import io.sam3stream.avro.MaskFormat;
import io.sam3stream.avro.Prompt;
import io.sam3stream.avro.PromptResult;
import io.sam3stream.avro.SegmentationRequest;
import io.sam3stream.avro.SegmentationResult;
import io.sam3stream.avro.Status;
import io.sam3stream.avro.WorkerState;
import io.sam3stream.avro.WorkerStatus;
import io.sam3stream.config.Settings;
import io.sam3stream.engine.BoxExemplar;
import io.sam3stream.engine.EncodedMask;
import io.sam3stream.engine.PromptSpec;
import io.sam3stream.engine.SegmentRequest;
import io.sam3stream.engine.SegmentResponse;
import io.sam3stream.engine.Segmenter;
import io.sam3stream.schemas.Topics.ReplyHeaders;
import io.sam3stream.schemas.serde.SpecificAvroDeserializer;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The worker with the tiny golden checkpoint, through a real broker and registry. */
@ExtendWith(KafkaTestStack.class)
class WorkerEndToEndTest {

    private static final Duration RESULTS_TIMEOUT = Duration.ofSeconds(90);

    private static Map<String, String> env;
    private static RunningWorker worker;
    private static Segmenter direct;

    @BeforeAll
    static void start() throws Exception {
        env = KafkaTestStack.workerEnvironment("e2e");
        worker = RunningWorker.start(env);
        direct = TinyEngine.load(Settings.from(env));
    }

    @AfterAll
    static void stop() {
        worker.close();
        direct.close();
    }

    /** A request as the worker gets it and as the engine would be asked it directly. */
    private record Asked(SegmentationRequest avro, SegmentRequest engine) {}

    @Test
    void resultsEqualTheEnginesDirectAnswerToTheSameRequest() {
        byte[] image = TestRequests.goldenImage();
        List<Asked> asked = List.of(
                new Asked(TestRequests.request("one-prompt-png", image, "cat").build(),
                        SegmentRequest.of(image, "cat")),
                new Asked(TestRequests.request("two-prompts-rle", image, "cat", "a red car").setThreshold(0.3f)
                        .setMaskFormat(MaskFormat.rle).build(),
                        new SegmentRequest(image, List.of(PromptSpec.text("cat"), PromptSpec.text("a red car")),
                                0.3f, 50, io.sam3stream.engine.MaskFormat.RLE)),
                new Asked(TestRequests.request("exemplar-compressed", image, "cat")
                        .setPrompts(List.of(new Prompt("cat", List.of(new ExemplarBox(
                                new Box(70f, 30f, 150f, 105f), BoxLabel.positive)))))
                        .setMaskFormat(MaskFormat.rle_compressed).build(),
                        new SegmentRequest(image, List.of(new PromptSpec("cat",
                                List.of(new BoxExemplar(70f, 30f, 150f, 105f, true)))),
                                0.5f, 50, io.sam3stream.engine.MaskFormat.RLE_COMPRESSED)),
                new Asked(TestRequests.request("boxes-only", image, "person wearing a hat").setThreshold(0.1f)
                        .setMaxInstances(2).setMaskFormat(MaskFormat.none).setMetadata(Map.of("frame", "17")).build(),
                        new SegmentRequest(image, List.of(PromptSpec.text("person wearing a hat")), 0.1f, 2,
                                io.sam3stream.engine.MaskFormat.NONE)));
        try (TestClients.Requests producer = new TestClients.Requests(worker.config().requestsTopic())) {
            asked.forEach(a -> producer.send(a.avro()));
        }

        Map<String, SegmentationResult> results = TestRequests.byRequestId(TestRequests.results(
                TestClients.readCommittedKeys(worker.config().resultsTopic(),
                        asked.stream().map(a -> a.avro().getRequestId()).toList(), RESULTS_TIMEOUT)));

        assertEquals(asked.size(), results.size());
        for (Asked a : asked) {
            SegmentationResult result = results.get(a.avro().getRequestId());
            assertNotNull(result, a.avro().getRequestId());
            assertEquals(Status.OK, result.getStatus(), result.toString());
            assertSameAnswer(direct.segment(a.engine()), result);
            assertEquals(worker.config().workerId(), result.getWorkerId());
            assertEquals(direct.info().modelRepo(), result.getModel().getRepo());
            assertEquals(direct.info().modelRevision(), result.getModel().getRevision());
            assertEquals(direct.info().device(), result.getDevice());
            assertEquals(a.avro().getMetadata(), result.getMetadata());
            assertTrue(result.getTimingMs().getForward() > 0);
            assertTrue(result.getTimingMs().getTotal() >= result.getTimingMs().getForward());
        }
        assertTrue(results.get("two-prompts-rle").getResults().get(0).getNumInstances() > 0,
                "the comparison covers instances with masks");
    }

    @Test
    void aRequestWithSpringReplyHeadersIsAnsweredOnThatPartitionWithItsCorrelationId() {
        String replies = worker.config().requestsTopic() + ".replies";
        TestClients.createTopic(replies, 3);
        RecordHeaders headers = new RecordHeaders();
        headers.add(ReplyHeaders.REPLY_TOPIC, replies.getBytes(StandardCharsets.UTF_8));
        headers.add(ReplyHeaders.REPLY_PARTITION, ByteBuffer.allocate(4).putInt(2).array());
        headers.add(ReplyHeaders.CORRELATION_ID, new byte[] {9, 8, 7});
        try (TestClients.Requests producer = new TestClients.Requests(worker.config().requestsTopic())) {
            producer.send(TestRequests.request("reply-me", TestRequests.goldenImage(), "cat").build(), headers);
        }

        List<ConsumerRecord<byte[], byte[]>> replied = TestClients.readCommitted(replies, 1, RESULTS_TIMEOUT);
        assertEquals(1, replied.size());
        ConsumerRecord<byte[], byte[]> reply = replied.get(0);
        assertEquals(2, reply.partition());
        assertEquals("reply-me", new String(reply.key(), StandardCharsets.UTF_8));
        assertArrayEquals(new byte[] {9, 8, 7}, reply.headers().lastHeader(ReplyHeaders.CORRELATION_ID).value());
        assertEquals(Status.OK, TestRequests.results(replied).get(0).getStatus());
    }

    @Test
    void aReplyTopicThatDoesNotExistGetsAnErrorSayingSoOnTheResultsTopic() {
        RecordHeaders headers = new RecordHeaders();
        headers.add(ReplyHeaders.REPLY_TOPIC, "no-such-topic".getBytes(StandardCharsets.UTF_8));
        headers.add(ReplyHeaders.CORRELATION_ID, new byte[] {4});
        try (TestClients.Requests producer = new TestClients.Requests(worker.config().requestsTopic())) {
            producer.send(TestRequests.request("lost-reply-topic", TestRequests.goldenImage(), "cat").build(),
                    headers);
        }

        List<ConsumerRecord<byte[], byte[]>> found = TestClients.readCommittedKeys(worker.config().resultsTopic(),
                List.of("lost-reply-topic"), RESULTS_TIMEOUT);
        assertEquals(1, found.size());
        ConsumerRecord<byte[], byte[]> result = found.get(0);
        assertArrayEquals(new byte[] {4}, result.headers().lastHeader(ReplyHeaders.CORRELATION_ID).value());
        SegmentationResult error = TestRequests.results(found).get(0);
        assertEquals(Status.ERROR, error.getStatus());
        assertEquals(ErrorCode.BAD_REQUEST, error.getError().getCode());
        assertTrue(error.getError().getMessage().contains("no-such-topic"), error.getError().getMessage());
    }

    @Test
    void aMalformedReplyPartitionGetsAnErrorOnTheReplyTopic() {
        String replies = worker.config().requestsTopic() + ".replies-malformed";
        TestClients.createTopic(replies, 1);
        RecordHeaders headers = new RecordHeaders();
        headers.add(ReplyHeaders.REPLY_TOPIC, replies.getBytes(StandardCharsets.UTF_8));
        headers.add(ReplyHeaders.REPLY_PARTITION, new byte[] {0, 1});
        try (TestClients.Requests producer = new TestClients.Requests(worker.config().requestsTopic())) {
            producer.send(TestRequests.request("bad-partition", TestRequests.goldenImage(), "cat").build(), headers);
        }

        List<ConsumerRecord<byte[], byte[]>> found = TestClients.readCommittedKeys(replies, List.of("bad-partition"),
                RESULTS_TIMEOUT);
        assertEquals(1, found.size());
        SegmentationResult error = TestRequests.results(found).get(0);
        assertEquals(Status.ERROR, error.getStatus());
        assertTrue(error.getError().getMessage().contains("not a 4-byte big-endian int"),
                error.getError().getMessage());
    }

    @Test
    void heartbeatsReportStartingThenReadyWithTheLoadedModelAndItsLimits() {
        SpecificAvroDeserializer<WorkerStatus> statuses =
                new SpecificAvroDeserializer<>(KafkaTestStack.registryClient(), WorkerStatus.class);
        List<WorkerStatus> seen = TestClients.readCommitted(worker.config().workersTopic(), RESULTS_TIMEOUT,
                read -> read.stream().anyMatch(r -> statuses.deserialize(r.topic(), r.value()).getState()
                        == WorkerState.READY)).stream().map(r -> statuses.deserialize(r.topic(), r.value())).toList();

        assertEquals(WorkerState.STARTING, seen.get(0).getState());
        WorkerStatus ready = seen.stream().filter(s -> s.getState() == WorkerState.READY).findFirst().orElseThrow();
        assertEquals(worker.config().workerId(), ready.getWorkerId());
        assertEquals(direct.info().backend(), ready.getBackend());
        assertEquals(direct.info().device(), ready.getDevice());
        assertEquals(direct.info().modelRepo(), ready.getModelRepo());
        assertEquals(direct.info().modelRevision(), ready.getModelRevision());
        assertEquals(direct.info().checkpoint(), ready.getCheckpointPath());
        assertEquals(worker.config().limits(), ready.getLimits());
        assertEquals("1", ready.getRuntime().get("SAM3_WARMUP_RUNS"));
        assertFalse(ready.getRuntime().containsKey("encoder_trace_captured"), "the encoder runs in DJL: no trace");
        // the precision the engine resolved, with its reason, once loaded; only the setting before
        assertEquals(direct.info().precision(), ready.getRuntime().get(StatusHeartbeats.PRECISION));
        assertEquals("fp32: SAM3_PRECISION=fp32", ready.getRuntime().get(StatusHeartbeats.PRECISION));
        assertEquals("SAM3_PRECISION=fp32", seen.get(0).getRuntime().get(StatusHeartbeats.PRECISION));
        assertNotNull(ready.getLastForwardMs(), "the warm-up forward is reported");
        assertEquals((int) StatusHeartbeats.INTERVAL.toMillis(), ready.getHeartbeatIntervalMs());
        assertNull(seen.get(0).getLastForwardMs(), "no forward before the warm-up");
    }

    /** The Avro result says exactly what the engine said, field for field. */
    private static void assertSameAnswer(SegmentResponse expected, SegmentationResult actual) {
        assertEquals(expected.width(), actual.getWidth());
        assertEquals(expected.height(), actual.getHeight());
        assertEquals(expected.inputSize(), actual.getInputSize());
        assertEquals(expected.threshold(), actual.getThreshold());
        assertEquals(expected.maskFormat().wireName(), actual.getMaskFormat().name());
        assertEquals(expected.results().size(), actual.getResults().size());
        for (int p = 0; p < expected.results().size(); p++) {
            SegmentResponse.PromptResult want = expected.results().get(p);
            PromptResult got = actual.getResults().get(p);
            assertEquals(want.prompt(), got.getPrompt());
            assertEquals(want.presence(), got.getPresence());
            assertEquals(want.instances().size(), got.getNumInstances());
            assertEquals(want.instances().size(), got.getInstances().size());
            for (int i = 0; i < want.instances().size(); i++) {
                assertSameInstance(want.instances().get(i), got.getInstances().get(i));
            }
        }
    }

    private static void assertSameInstance(SegmentResponse.Instance want, Instance got) {
        assertEquals(want.score(), got.getScore());
        float[] b = want.boxXyxy();
        assertEquals(new Box(b[0], b[1], b[2], b[3]), got.getBoxXyxy());
        if (want.mask() == null) {
            assertNull(got.getMaskArea());
            assertNull(got.getMaskPng());
            assertNull(got.getMaskRle());
            return;
        }
        assertEquals(want.maskArea(), got.getMaskArea());
        if (want.mask() instanceof EncodedMask.Png png) {
            byte[] bytes = new byte[got.getMaskPng().remaining()];
            got.getMaskPng().duplicate().get(bytes);
            assertArrayEquals(png.bytes(), bytes);
        } else if (want.mask() instanceof EncodedMask.Rle rle) {
            assertEquals(List.of(rle.height(), rle.width()), got.getMaskRle().getSize());
            assertEquals(Arrays.stream(rle.counts()).boxed().toList(), got.getMaskRle().getCounts());
        } else if (want.mask() instanceof EncodedMask.CompressedRle rle) {
            assertEquals(List.of(rle.height(), rle.width()), got.getMaskRle().getSize());
            assertEquals(rle.counts(), got.getMaskRle().getCounts());
        }
    }
}
