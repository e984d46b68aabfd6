package io.sam3stream.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.sam3stream.telemetry.testing.RecordedSpans;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A request record's trace through a real worker: the worker's spans continue the trace its {@code traceparent}
 * header names, one span per stage and per model module, and the result (or dead letter) carries the worker's span
 * on as its own {@code traceparent}.
 */
@ExtendWith(KafkaTestStack.class)
class RecordTracingTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final String TRACE_ID = "0af7651916cd43dd8448eb211c80319c";
    private static final String PRODUCER_SPAN_ID = "b7ad6b7169203331";

    private static RecordedSpans spans;
    private static RunningWorker worker;

    @BeforeAll
    static void startWorker() throws Exception {
        spans = new RecordedSpans();
        worker = RunningWorker.start(KafkaTestStack.workerEnvironment("tracing"), spans.tracing());
    }

    @AfterAll
    static void stopWorker() {
        worker.close();
        spans.close();
    }

    private static RecordHeaders traceparent(String traceId, String spanId) {
        RecordHeaders headers = new RecordHeaders();
        headers.add("traceparent", ("00-" + traceId + "-" + spanId + "-01").getBytes(StandardCharsets.UTF_8));
        return headers;
    }

    private static String traceparentOf(ConsumerRecord<byte[], byte[]> record) {
        Header h = record.headers().lastHeader("traceparent");
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    private static SpanData processSpanOf(String requestId) throws InterruptedException {
        return spans.await(s -> requestId.equals(s.getAttributes().get(AttributeKey.stringKey("sam3.request_id"))),
                TIMEOUT);
    }

    @Test
    void aTracedRequestGetsAStageSpanTreeUnderItsProducerAndItsResultCarriesTheWorkersSpan() throws Exception {
        WorkerConfig config = worker.config();
        // an image and a prompt the warm-up has not seen, so that every module runs
        byte[] image = TestRequests.goldenImage(96, 80);
        List<ConsumerRecord<byte[], byte[]>> results;
        try (TestClients.Requests requests = new TestClients.Requests(config.requestsTopic())) {
            requests.send(TestRequests.request("traced", image, "cat", "a red car").build(),
                    traceparent(TRACE_ID, PRODUCER_SPAN_ID));
            results = TestClients.readCommitted(config.resultsTopic(), 1, TIMEOUT);
            // then the same image and a prompt seen (sent once the first is answered, as two records' host stages
            // may finish in either order): both come from the caches, so only the grounding runs
            requests.send(TestRequests.request("traced-again", image, "cat").build(),
                    traceparent(TRACE_ID, PRODUCER_SPAN_ID));
        }
        SpanData process = processSpanOf("traced");
        assertEquals(TRACE_ID, process.getTraceId());
        assertEquals(PRODUCER_SPAN_ID, process.getParentSpanId());
        assertEquals(SpanKind.CONSUMER, process.getKind());
        assertEquals("process " + config.requestsTopic(), process.getName());
        assertEquals("kafka", process.getAttributes().get(AttributeKey.stringKey("messaging.system")));
        assertEquals(config.consumerGroup(),
                process.getAttributes().get(AttributeKey.stringKey("messaging.consumer.group.name")));
        assertEquals(2L, process.getAttributes().get(AttributeKey.longKey("sam3.prompts")));
        assertEquals("OK", process.getAttributes().get(AttributeKey.stringKey("sam3.outcome")));
        assertEquals(List.of("decode request", "encode result", "finish", "forward", "prepare"),
                spans.childNames(process));
        assertEquals(List.of("decode", "preprocess"), spans.childNames(spans.child(process, "prepare")));
        SpanData forward = spans.child(process, "forward");
        assertEquals(List.of("grounding", "image_encoder", "text_encoder"), spans.childNames(forward));
        for (String module : List.of("image_encoder", "text_encoder", "grounding")) {
            SpanData m = spans.child(forward, module);
            assertTrue(m.getStartEpochNanos() >= forward.getStartEpochNanos()
                    && m.getEndEpochNanos() <= forward.getEndEpochNanos() + 1_000_000, module + " lies in the forward");
        }
        SpanData again = processSpanOf("traced-again");
        assertEquals(List.of("grounding"), spans.childNames(spans.child(again, "forward")),
                "cached image and text: the encoders did not run");
        assertEquals(true, spans.child(again, "forward").getAttributes()
                .get(AttributeKey.booleanKey("sam3.image_features_cached")));

        ConsumerRecord<byte[], byte[]> result = results.stream()
                .filter(r -> new String(r.key(), StandardCharsets.UTF_8).equals("traced")).findFirst().orElseThrow();
        assertEquals("00-" + TRACE_ID + "-" + process.getSpanId() + "-01", traceparentOf(result));
    }

    @Test
    void anUntracedRequestStartsATraceAndADeadLetterCarriesItsSpanWithTheReason() throws Exception {
        WorkerConfig config = worker.config();
        try (TestClients.Requests requests = new TestClients.Requests(config.requestsTopic())) {
            requests.send(TestRequests.request("untraced", TestRequests.goldenImage(), "cat").build());
            requests.sendRaw("poison".getBytes(StandardCharsets.UTF_8), "not avro".getBytes(StandardCharsets.UTF_8),
                    traceparent(TRACE_ID, "1111111111111111"));
        }
        SpanData untraced = processSpanOf("untraced");
        assertFalse(untraced.getParentSpanContext().isValid(), "a root span");
        assertNotEquals(TRACE_ID, untraced.getTraceId());

        List<ConsumerRecord<byte[], byte[]>> dead = TestClients.readCommitted(config.deadLetterTopic(), 1, TIMEOUT);
        SpanData poison = spans.await(s -> "1111111111111111".equals(s.getParentSpanId()), TIMEOUT);
        assertEquals(StatusCode.ERROR, poison.getStatus().getStatusCode());
        assertEquals("DEAD_LETTER", poison.getAttributes().get(AttributeKey.stringKey("sam3.outcome")));
        assertEquals("WRONG_MAGIC_BYTE", poison.getAttributes().get(AttributeKey.stringKey("sam3.error_code")));
        assertEquals(StatusCode.ERROR, spans.child(poison, "decode request").getStatus().getStatusCode());
        assertEquals(1, dead.get(0).headers().toArray().length - countNonTrace(dead.get(0)),
                "one traceparent: the request's was replaced by the worker's");
        assertEquals("00-" + TRACE_ID + "-" + poison.getSpanId() + "-01", traceparentOf(dead.get(0)));
    }

    private static int countNonTrace(ConsumerRecord<byte[], byte[]> record) {
        int n = 0;
        for (Header h : record.headers()) {
            if (!h.key().equals("traceparent")) {
                n++;
            }
        }
        return n;
    }
}
