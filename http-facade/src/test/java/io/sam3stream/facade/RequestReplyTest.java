package io.sam3stream.facade;

import static io.sam3stream.facade.PredictErrorsTest.assertError;
import static io.sam3stream.facade.testing.FacadeHarness.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sam3stream.avro.BoxLabel;
import io.sam3stream.avro.ExemplarBox;
import io.sam3stream.avro.SegmentationRequest;
import io.sam3stream.facade.reply.ReplyEvents.DropReason;
import io.sam3stream.facade.testing.Bodies;
import io.sam3stream.facade.testing.FacadeHarness;
import io.sam3stream.facade.testing.FakeWorker;
import io.sam3stream.facade.testing.TestImages;
import io.sam3stream.facade.testing.TestStack;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code POST /predict} through a real broker to a worker that knows only the Avro contract and Spring Kafka's
 * three reply headers: the JSON is the worker's result field for field, the worker's errors keep their status, and
 * the facade's own limits (deadline, in-flight, record size) hold.
 */
@ExtendWith(TestStack.class)
class RequestReplyTest {

    private static final int CONSTRAINED_MESSAGE_BYTES = 64 * 1024;
    private static final int CONSTRAINED_TIMEOUT_MS = 2000;

    private static FakeWorker worker;
    private static FacadeHarness facade;
    private static FacadeHarness constrained;

    @BeforeAll
    static void start() throws Exception {
        String requests = TestStack.uniqueTopic("requests");
        String workers = TestStack.uniqueTopic("workers");
        TestStack.createTopics(4, Map.of(requests, false));
        TestStack.createTopics(1, Map.of(workers, true));
        worker = new FakeWorker("worker-a", TestStack.uniqueTopic("group"), requests, workers).ready();
        facade = FacadeHarness.start(Map.of(
                "SAM3_REQUESTS_TOPIC", requests,
                "SAM3_WORKERS_TOPIC", workers,
                "SAM3_REPLY_TOPIC", TestStack.uniqueTopic("replies"),
                "SAM3_REPLY_PARTITIONS", "0,1",
                "SAM3_REPLY_TIMEOUT_MS", "20000")).awaitHealthy();
        constrained = FacadeHarness.start(Map.of(
                "SAM3_REQUESTS_TOPIC", requests,
                "SAM3_WORKERS_TOPIC", workers,
                "SAM3_REPLY_TOPIC", TestStack.uniqueTopic("replies"),
                "SAM3_REPLY_PARTITIONS", "0",
                "SAM3_MAX_IN_FLIGHT", "1",
                "SAM3_MAX_MESSAGE_BYTES", Integer.toString(CONSTRAINED_MESSAGE_BYTES),
                "SAM3_REPLY_TIMEOUT_MS", Integer.toString(CONSTRAINED_TIMEOUT_MS))).awaitHealthy();
    }

    @AfterAll
    static void stop() {
        constrained.close();
        facade.close();
        worker.close();
    }

    @Test
    void answersWithTheWorkersResultFieldForField() {
        ObjectNode body = Bodies.predict(640, 480, "cat", "dog");
        body.put("threshold", 0.25);
        body.put("max_instances", 7);

        HttpResponse<String> response = facade.predict(body.toString());

        assertEquals(200, response.statusCode(), response.body());
        assertTrue(response.headers().firstValue("Content-Type").orElseThrow().startsWith("application/json"));
        JsonNode json = json(response);
        assertEquals(List.of("width", "height", "input_size", "threshold", "mask_format", "results", "timing_ms",
                "request_id", "worker_id", "model", "device", "metadata"), fieldNames(json));
        assertEquals(640, json.get("width").asInt());
        assertEquals(480, json.get("height").asInt());
        assertEquals(1008, json.get("input_size").asInt());
        assertEquals(0.25, json.get("threshold").asDouble());
        assertEquals("png", json.get("mask_format").asText());
        assertEquals(2, json.get("results").size());
        JsonNode cat = json.get("results").get(0);
        assertEquals(List.of("prompt", "presence", "num_instances", "instances"), fieldNames(cat));
        assertEquals("cat", cat.get("prompt").asText());
        assertEquals(0.95f, cat.get("presence").floatValue());
        assertEquals(1, cat.get("num_instances").asInt());
        JsonNode instance = cat.get("instances").get(0);
        assertEquals(List.of("score", "box_xyxy", "mask_area", "mask_png"), fieldNames(instance));
        assertEquals(0.9f, instance.get("score").floatValue());
        assertEquals("[0.0,0.0,640.0,480.0]", instance.get("box_xyxy").toString());
        assertEquals(640 * 480, instance.get("mask_area").asLong());
        assertEquals("mask of cat", new String(Base64.getDecoder().decode(instance.get("mask_png").asText()),
                StandardCharsets.UTF_8));
        assertEquals("dog", json.get("results").get(1).get("prompt").asText());
        assertEquals(List.of("decode", "preprocess", "forward", "forward_per_prompt", "postprocess", "total",
                "queue"), fieldNames(json.get("timing_ms")));
        assertEquals(20.0, json.get("timing_ms").get("forward_per_prompt").asDouble());
        assertEquals("worker-a", json.get("worker_id").asText());
        assertEquals("facebook/sam3", json.get("model").get("repo").asText());
        assertEquals("cpu", json.get("device").asText());
        SegmentationRequest seen = worker.received().stream()
                .filter(r -> r.getRequestId().equals(json.get("request_id").asText())).findFirst().orElseThrow();
        assertEquals(7, seen.getMaxInstances());
        assertEquals(0.25f, seen.getThreshold());
        assertTrue(seen.getDeadline() != null, "the request carries the caller's deadline");
    }

    @Test
    void rendersRleAsCocoObjectsAndNoneWithoutMasks() {
        JsonNode rle = maskFormat("rle");
        assertEquals("{\"size\":[48,64],\"counts\":[0,3072]}", rle.get("mask_rle").toString());
        assertFalse(rle.has("mask_png"));

        JsonNode compressed = maskFormat("rle_compressed");
        assertEquals("{\"size\":[48,64],\"counts\":\"0cat\"}", compressed.get("mask_rle").toString());

        JsonNode none = maskFormat("none");
        assertEquals(List.of("score", "box_xyxy"), fieldNames(none));
    }

    private static JsonNode maskFormat(String format) {
        ObjectNode body = Bodies.predict(64, 48, "cat");
        body.put("mask_format", format);
        HttpResponse<String> response = facade.predict(body.toString());
        assertEquals(200, response.statusCode(), response.body());
        assertEquals(format, json(response).get("mask_format").asText());
        return json(response).get("results").get(0).get("instances").get(0);
    }

    @Test
    void exemplarBoxesAndMetadataTravelInTheAvroRequest() {
        ObjectNode body = Bodies.predict(300, 200);
        ObjectNode prompt = body.withArray("prompts").addObject().put("text", "mug");
        prompt.putArray("boxes").addObject().put("positive", false)
                .putArray("box_xyxy").add(10).add(20.5).add(110).add(120);
        body.putObject("metadata").put("camera", "7");

        HttpResponse<String> response = facade.predict(body.toString());

        assertEquals(200, response.statusCode(), response.body());
        JsonNode json = json(response);
        assertEquals("[10.0,20.5,110.0,120.0]",
                json.get("results").get(0).get("instances").get(0).get("box_xyxy").toString());
        assertEquals("{\"camera\":\"7\"}", json.get("metadata").toString());
        SegmentationRequest seen = worker.received().stream()
                .filter(r -> r.getRequestId().equals(json.get("request_id").asText())).findFirst().orElseThrow();
        ExemplarBox box = seen.getPrompts().get(0).getBoxes().get(0);
        assertEquals(BoxLabel.negative, box.getLabel());
        assertEquals(20.5f, box.getBoxXyxy().getY0());
    }

    @Test
    void anErrorResultKeepsTheStatusOfItsCode() {
        assertError(facade.predict(Bodies.predict(64, 64, "error:BAD_REQUEST:image cannot be decoded").toString()),
                400, "image cannot be decoded");
        HttpResponse<String> internal = facade.predict(
                Bodies.predict(64, 64, "error:INTERNAL_ERROR:internal error 42 (the worker's log has the details)")
                        .toString());
        assertError(internal, 500, "internal error 42 (the worker's log has the details)");
        assertEquals("INTERNAL_ERROR", json(internal).get("error").asText());
    }

    @Test
    void noReplyBeforeTheDeadlineGets504() {
        long start = System.nanoTime();

        HttpResponse<String> response = constrained.predict(Bodies.predict(64, 64, "silent").toString());

        assertError(response, 504, "no reply within " + CONSTRAINED_TIMEOUT_MS + " ms");
        assertEquals("DEADLINE_EXCEEDED", json(response).get("error").asText());
        assertTrue(System.nanoTime() - start >= Duration.ofMillis(CONSTRAINED_TIMEOUT_MS).toNanos());
    }

    @Test
    void aLateReplyIsCountedAndNeverDeliveredToAnotherCaller() throws Exception {
        double lateBefore = constrained.server().metrics().droppedCount(DropReason.LATE);

        HttpResponse<String> late = constrained.predict(
                Bodies.predict(64, 64, "late:" + (CONSTRAINED_TIMEOUT_MS + 500)).toString());
        assertEquals(504, late.statusCode(), late.body());
        // the next caller is waiting when the late reply arrives (500 ms in), and must get its own (1500 ms in)
        HttpResponse<String> next = constrained.predict(Bodies.predict(99, 77, "late:1500").toString());

        assertEquals(200, next.statusCode(), next.body());
        assertEquals(99, json(next).get("width").asInt());
        assertEquals("late:1500", json(next).get("results").get(0).get("prompt").asText());
        FacadeHarness.awaitTrue(Duration.ofSeconds(10),
                () -> constrained.server().metrics().droppedCount(DropReason.LATE) == lateBefore + 1);
    }

    @Test
    void requestsOverTheInFlightLimitGet429WithRetryAfter() throws Exception {
        int before = worker.received().size();
        CompletableFuture<HttpResponse<String>> held = constrained.predictAsync(
                Bodies.predict(64, 64, "hold").toString());
        FacadeHarness.awaitTrue(Duration.ofSeconds(10), () -> worker.received().size() > before);

        HttpResponse<String> refused = constrained.predict(Bodies.predict(64, 64, "cat").toString());

        assertError(refused, 429, "SAM3_MAX_IN_FLIGHT=1");
        assertTrue(Long.parseLong(refused.headers().firstValue("Retry-After").orElseThrow()) >= 1);
        worker.releaseHeld();
        assertEquals(200, held.get().statusCode(), held.get().body());
        assertEquals(200, constrained.predict(Bodies.predict(64, 64, "cat").toString()).statusCode());
    }

    @Test
    void aRequestThatDoesNotFitAKafkaRecordGets413() {
        ObjectNode body = Bodies.predict(64, 64, "cat");
        body.put("image", TestImages.base64(TestImages.pngOfSize(64, 64, CONSTRAINED_MESSAGE_BYTES)));

        HttpResponse<String> response = constrained.predict(body.toString());

        assertError(response, 413, "does not fit a Kafka record");
    }

    @Test
    void metricsCountRequestsByStatusAndTimeStagesAndRoundTrips() {
        assertEquals(200, facade.predict(Bodies.predict(64, 64, "cat").toString()).statusCode());

        HttpResponse<String> metrics = facade.get("/metrics");

        assertEquals(200, metrics.statusCode());
        assertTrue(metrics.headers().firstValue("Content-Type").orElseThrow().startsWith("text/plain"));
        String text = metrics.body();
        assertTrue(text.contains("sam3_http_requests_seconds_count{method=\"POST\",route=\"/predict\",status=\"200\"}"),
                text);
        assertTrue(text.contains("sam3_worker_stage_seconds_count{stage=\"forward\"}"), text);
        assertTrue(text.contains("sam3_kafka_round_trip_seconds_bucket"), text);
        assertTrue(text.contains("sam3_predict_in_flight"), text);
        assertTrue(text.contains("sam3_workers_ready 1.0"), text);
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new java.util.ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
