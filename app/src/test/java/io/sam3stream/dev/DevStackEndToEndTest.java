package io.sam3stream.dev;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.sam3stream.broker.LoopbackPorts;
import io.sam3stream.config.Knob;
import io.sam3stream.config.Settings;
import io.sam3stream.engine.EncodedMask;
import io.sam3stream.engine.EngineFactory;
import io.sam3stream.engine.MaskFormat;
import io.sam3stream.engine.ModelSource;
import io.sam3stream.engine.PromptSpec;
import io.sam3stream.engine.Sam3Segmenter;
import io.sam3stream.engine.SegmentRequest;
import io.sam3stream.engine.SegmentResponse;
import io.sam3stream.telemetry.testing.RecordedSpans;
import io.sam3stream.testing.TinyGolden;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The one-process stack (embedded broker and registry, the real worker on the tiny golden model, the facade)
 * answers the reference's {@code POST /predict} with exactly what the engine computes directly, and one trace runs
 * from the HTTP client's {@code traceparent} through the facade, Kafka and the worker.
 */
class DevStackEndToEndTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration TRACE_WAIT = Duration.ofSeconds(60);
    private static Path dataDir;
    private static DevStack stack;
    private static Sam3Segmenter direct;
    private static byte[] image;
    private static RecordedSpans spans;

    @BeforeAll
    static void start() throws Exception {
        dataDir = Files.createTempDirectory("sam3-dev-e2e");
        Settings settings = Settings.from(Map.of("SAM3_PORT", "0", "SAM3_WARMUP_RUNS", "1",
                "SAM3_WORKER_ID", "e2e-worker", "SAM3_PRECISION", "fp32"));
        ModelSource model = ModelSource.checkpoint(TinyGolden.dir().resolve("sam3-tiny.pt"), Optional.empty());
        spans = new RecordedSpans();
        stack = DevStack.start(settings, model,
                new DevStack.Options("127.0.0.1", dataDir, LoopbackPorts.freePair(), 0, null, null), line -> {},
                Optional.of(spans.tracing()));
        direct = EngineFactory.create(settings,
                ModelSource.checkpoint(TinyGolden.dir().resolve("sam3-tiny.pt"), Optional.empty()), line -> {});
        image = Files.readAllBytes(TinyGolden.dir().resolve("image.png"));
    }

    @AfterAll
    static void stop() {
        stack.close();
        direct.close();
        spans.close();
    }

    @ParameterizedTest
    @EnumSource(MaskFormat.class)
    void predictOverKafkaEqualsTheEngineDirectly(MaskFormat format) throws Exception {
        String body = JSON.writeValueAsString(Map.of("image", Base64.getEncoder().encodeToString(image),
                "prompts", List.of("cat", "a red car"), "mask_format", format.wireName(), "max_instances", 3));
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + stack.httpPort() + "/predict"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
        JsonNode json = JSON.readTree(response.body());
        SegmentResponse expected = direct.segment(new SegmentRequest(image,
                List.of(PromptSpec.text("cat"), PromptSpec.text("a red car")), 0.5f, 3, format));

        assertEquals(expected.width(), json.get("width").asInt());
        assertEquals(expected.height(), json.get("height").asInt());
        assertEquals(expected.inputSize(), json.get("input_size").asInt());
        assertEquals(format.wireName(), json.get("mask_format").asText());
        for (int p = 0; p < expected.results().size(); p++) {
            SegmentResponse.PromptResult want = expected.results().get(p);
            JsonNode got = json.get("results").get(p);
            assertEquals(want.prompt(), got.get("prompt").asText());
            assertEquals(want.presence(), got.get("presence").floatValue(), 1e-6);
            assertEquals(want.instances().size(), got.get("num_instances").asInt());
            for (int i = 0; i < want.instances().size(); i++) {
                SegmentResponse.Instance w = want.instances().get(i);
                JsonNode g = got.get("instances").get(i);
                assertEquals(w.score(), g.get("score").floatValue(), 1e-6);
                if (format == MaskFormat.NONE) {
                    assertEquals(null, g.get("mask_area"), "mask_format none answers boxes and scores only");
                } else {
                    assertEquals(w.maskArea(), g.get("mask_area").asLong());
                }
                for (int k = 0; k < 4; k++) {
                    assertEquals(w.boxXyxy()[k], g.get("box_xyxy").get(k).floatValue(), 1e-4);
                }
                assertMask(w.mask(), g);
            }
        }
    }

    private static void assertMask(EncodedMask mask, JsonNode instance) {
        if (mask instanceof EncodedMask.Png png) {
            assertArrayEquals(png.bytes(), Base64.getDecoder().decode(instance.get("mask_png").asText()));
        } else if (mask instanceof EncodedMask.Rle rle) {
            JsonNode r = instance.get("mask_rle");
            assertEquals(rle.height(), r.get("size").get(0).asInt());
            int[] counts = new int[r.get("counts").size()];
            for (int i = 0; i < counts.length; i++) {
                counts[i] = r.get("counts").get(i).asInt();
            }
            assertArrayEquals(rle.counts(), counts);
        } else if (mask instanceof EncodedMask.CompressedRle rle) {
            assertEquals(rle.counts(), instance.get("mask_rle").get("counts").asText());
        } else {
            assertEquals(null, instance.get("mask_png"));
            assertEquals(null, instance.get("mask_rle"));
        }
    }

    private static HttpResponse<String> post(String path, String body, Map<String, String> headers)
            throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + stack.httpPort() + path))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
        headers.forEach(request::header);
        return HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String predictBody(String prompt) throws Exception {
        return JSON.writeValueAsString(Map.of("image", Base64.getEncoder().encodeToString(image),
                "prompts", List.of(prompt)));
    }

    private static SpanData workerSpanUnder(SpanData send) throws InterruptedException {
        return spans.await(s -> s.getKind() == SpanKind.CONSUMER && s.getParentSpanId().equals(send.getSpanId()),
                TRACE_WAIT);
    }

    @Test
    void aPredictCallsTraceparentRunsThroughTheFacadeKafkaAndTheWorker() throws Exception {
        String traceId = "5b8efff798038103d269b633813fc60c";
        String clientSpan = "eee19b7ec3c1b174";
        HttpResponse<String> response = post("/predict", predictBody("a traced cat"),
                Map.of("traceparent", "00-" + traceId + "-" + clientSpan + "-01"));
        assertEquals(200, response.statusCode(), response.body());

        SpanData server = spans.await(s -> s.getKind() == SpanKind.SERVER && s.getTraceId().equals(traceId),
                TRACE_WAIT);
        assertEquals("POST /predict", server.getName());
        assertEquals(clientSpan, server.getParentSpanId());
        assertEquals(200L, server.getAttributes().get(AttributeKey.longKey("http.response.status_code")));
        SpanData send = spans.child(server, "send " + stack.settings().get(Knob.SAM3_REQUESTS_TOPIC));
        assertEquals(SpanKind.PRODUCER, send.getKind());
        SpanData process = workerSpanUnder(send);
        assertEquals(traceId, process.getTraceId());
        assertEquals(List.of("decode request", "encode result", "finish", "forward", "prepare"),
                spans.childNames(process));
        assertTrue(process.getEndEpochNanos() <= server.getEndEpochNanos(),
                "the worker's span ends before the reply it sends is answered");
    }

    @Test
    void aJobSubmissionCarriesItsTraceThroughTheJobStoreToTheWorker() throws Exception {
        String traceId = "9a1c0e6f6d8e4b7fa5c3d2e1f0a9b8c7";
        Map<String, String> headers = Map.of("traceparent", "00-" + traceId + "-a1b2c3d4e5f60718-01");
        HttpResponse<String> response = post("/v1/jobs", predictBody("a traced job"), headers);
        for (long deadline = System.nanoTime() + 60_000_000_000L; response.statusCode() == 503
                && System.nanoTime() < deadline; ) { // the job store restores its state at start
            Thread.sleep(200);
            response = post("/v1/jobs", predictBody("a traced job"), headers);
        }
        assertEquals(202, response.statusCode(), response.body());

        SpanData server = spans.await(s -> s.getKind() == SpanKind.SERVER && s.getTraceId().equals(traceId)
                && s.getAttributes().get(AttributeKey.longKey("http.response.status_code")) == 202L, TRACE_WAIT);
        assertEquals("POST /v1/jobs", server.getName());
        SpanData send = spans.child(server, "send " + stack.settings().get(Knob.SAM3_JOB_SUBMISSIONS_TOPIC));
        SpanData process = workerSpanUnder(send);
        assertEquals("OK", process.getAttributes().get(AttributeKey.stringKey("sam3.outcome")));
    }

    @Test
    void aRefusedCallsSpanHasItsStatusAndHealthProbesMakeNoSpan() throws Exception {
        String traceId = "0123456789abcdef0123456789abcdef";
        HttpResponse<String> refused = post("/predict", "{\"prompts\": [\"cat\"]}",
                Map.of("traceparent", "00-" + traceId + "-0123456789abcdef-01"));
        assertEquals(422, refused.statusCode(), refused.body());
        SpanData server = spans.await(s -> s.getTraceId().equals(traceId), TRACE_WAIT);
        assertEquals(422L, server.getAttributes().get(AttributeKey.longKey("http.response.status_code")));
        assertEquals(List.of(), spans.childNames(server), "nothing was sent to Kafka");

        HttpResponse<String> health = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + stack.httpPort() + "/health")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, health.statusCode());
        assertTrue(spans.ended().stream().noneMatch(s -> "/health".equals(
                s.getAttributes().get(AttributeKey.stringKey("url.path")))));
    }
}
