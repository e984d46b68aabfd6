package io.sam3stream.facade;

import static io.sam3stream.facade.PredictErrorsTest.assertError;
import static io.sam3stream.facade.testing.FacadeHarness.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.sam3stream.avro.MaskFormat;
import io.sam3stream.avro.WorkerState;
import io.sam3stream.facade.testing.Bodies;
import io.sam3stream.facade.testing.FacadeHarness;
import io.sam3stream.facade.testing.FakeWorker;
import io.sam3stream.facade.testing.TestStack;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@code /health}, {@code /info}, {@code /v1/models} and {@code /openapi.json}, driven by worker heartbeats. */
@ExtendWith(TestStack.class)
class WorkerStatusRoutesTest {

    @Test
    void healthFollowsTheHeartbeatsOfReadyWorkers() throws Exception {
        String requests = TestStack.uniqueTopic("requests");
        String workersTopic = TestStack.uniqueTopic("workers");
        TestStack.createTopics(1, Map.of(requests, false));
        TestStack.createTopics(1, Map.of(workersTopic, true));
        try (FacadeHarness facade = FacadeHarness.start(Map.of(
                "SAM3_REQUESTS_TOPIC", requests,
                "SAM3_WORKERS_TOPIC", workersTopic,
                "SAM3_REPLY_TOPIC", TestStack.uniqueTopic("replies")));
                FakeWorker worker = new FakeWorker("worker-h", TestStack.uniqueTopic("group"), requests,
                        workersTopic)) {
            assertEquals("starting", json(facade.get("/health")).get("status").asText());
            worker.announce(WorkerState.STARTING);
            worker.ready();
            facade.awaitHealthy();
            JsonNode health = json(facade.get("/health"));
            assertEquals("ok", health.get("status").asText());
            assertEquals("sam3-p150", health.get("model").asText());
            assertEquals("{\"backend\":\"cpu\",\"name\":\"cpu\",\"ready_workers\":1}", health.get("device").toString());

            // a worker that dies silently stops counting after a few missed heartbeats
            worker.stopHeartbeats();
            FacadeHarness.awaitTrue(Duration.ofMillis(20 * FakeWorker.HEARTBEAT_INTERVAL_MS),
                    () -> facade.get("/health").statusCode() == 503);
            assertEquals("starting", json(facade.get("/health")).get("status").asText());
            assertError(facade.predict(Bodies.predict(64, 64, "cat").toString()), 503, "no worker is READY");

            // and one that says it stopped stops counting at once
            worker.announce(WorkerState.READY);
            facade.awaitHealthy();
            worker.announce(WorkerState.STOPPED);
            FacadeHarness.awaitTrue(Duration.ofMillis(FakeWorker.HEARTBEAT_INTERVAL_MS),
                    () -> facade.get("/health").statusCode() == 503);
        }
    }

    @Test
    @SuppressWarnings("try") // the worker only has to run (and heartbeat) while the facade is asked
    void infoAndModelsDescribeTheServiceAndItsReadyWorkers() throws Exception {
        String requests = TestStack.uniqueTopic("requests");
        String workersTopic = TestStack.uniqueTopic("workers");
        TestStack.createTopics(1, Map.of(requests, false));
        TestStack.createTopics(1, Map.of(workersTopic, true));
        try (FakeWorker worker = new FakeWorker("worker-i", TestStack.uniqueTopic("group"), requests, workersTopic)
                .ready();
                FacadeHarness facade = FacadeHarness.start(Map.of(
                        "SAM3_REQUESTS_TOPIC", requests,
                        "SAM3_WORKERS_TOPIC", workersTopic,
                        "SAM3_REPLY_TOPIC", TestStack.uniqueTopic("replies"),
                        "SAM3_REPLY_PARTITIONS", "1",
                        "SAM3_MAX_PROMPTS", "3")).awaitHealthy()) {
            JsonNode info = json(facade.get("/info"));
            assertEquals("facebook/sam3", info.get("weights").get("repo").asText());
            assertEquals("3c879f39826c281e95690f02c7821c4de09afae7", info.get("weights").get("revision").asText());
            assertEquals("/weights/sam3.pt", info.get("weights").get("checkpoint_path").asText());
            assertFalse(info.get("weights").get("demo").asBoolean(), "the real checkpoint is not the demo model");
            assertEquals(3, info.get("limits").get("max_prompts").asInt());
            assertEquals("[1]", info.get("runtime").get("reply_partitions").toString());
            assertEquals(1, info.get("workers").size());
            assertEquals("worker-i", info.get("workers").get(0).get("worker_id").asText());
            assertEquals("fp32", info.get("workers").get(0).get("runtime").get("SAM3_PRECISION").asText());
            assertFalse(info.get("runtime").has("encoder_trace_captured"), "no worker runs its encoder on a device");

            JsonNode models = json(facade.get("/v1/models"));
            assertEquals("list", models.get("object").asText());
            assertEquals("sam3-p150", models.get("data").get(0).get("id").asText());
            assertEquals("model", models.get("data").get(0).get("object").asText());
            assertTrue(models.get("data").get(0).get("created").isIntegralNumber());
        }
    }

    @Test
    @SuppressWarnings("try")
    void infoLiftsTheDeviceWorkersEncoderTraceFieldsAsTheReferenceNamesThem() throws Exception {
        String requests = TestStack.uniqueTopic("requests");
        String workersTopic = TestStack.uniqueTopic("workers");
        TestStack.createTopics(1, Map.of(requests, false));
        TestStack.createTopics(1, Map.of(workersTopic, true));
        String group = TestStack.uniqueTopic("group");
        try (FakeWorker clean = new FakeWorker("tt-0", group, requests, workersTopic)
                .withRuntime(Map.of("encoder_trace_captured", "true", "encoder_fallbacks", "0")).ready();
                FakeWorker fellBack = new FakeWorker("tt-1", group, requests, workersTopic)
                        .withRuntime(Map.of("encoder_trace_captured", "true", "encoder_fallbacks", "2")).ready();
                FacadeHarness facade = FacadeHarness.start(Map.of(
                        "SAM3_REQUESTS_TOPIC", requests,
                        "SAM3_WORKERS_TOPIC", workersTopic,
                        "SAM3_REPLY_TOPIC", TestStack.uniqueTopic("replies"),
                        "SAM3_REPLY_PARTITIONS", "1")).awaitHealthy()) {
            FacadeHarness.awaitTrue(Duration.ofSeconds(10),
                    () -> json(facade.get("/info")).get("workers").size() == 2);
            JsonNode runtime = json(facade.get("/info")).get("runtime");
            assertTrue(runtime.get("encoder_trace_captured").asBoolean(), runtime.toString());
            assertEquals(2, runtime.get("encoder_fallbacks").asLong(), runtime.toString());
        }
    }

    @Test
    void openApiDescribesEveryRouteAndTheMaskFormats() throws Exception {
        try (FacadeHarness facade = FacadeHarness.start(Map.of(
                "SAM3_WORKERS_TOPIC", TestStack.uniqueTopic("workers"),
                "SAM3_REPLY_TOPIC", TestStack.uniqueTopic("replies")))) {
            JsonNode doc = json(facade.get("/openapi.json"));
            Set<String> documented = new TreeSet<>();
            doc.get("paths").fieldNames().forEachRemaining(documented::add);
            assertEquals(new TreeSet<>(List.of("/predict", "/health", "/info", "/v1/models", "/metrics",
                    "/openapi.json", "/v1/jobs", "/v1/jobs/{job_id}")), documented);
            for (String path : documented) {
                doc.get("paths").get(path).fieldNames().forEachRemaining(method -> {
                    // a templated path answers 404 for an unknown id by design; JobsTest reads it with real ids
                    if (method.equals("get") && !path.contains("{")) {
                        assertTrue(facade.get(path).statusCode() != 404, path + " is documented but not served");
                    }
                });
            }
            List<String> formats = new ArrayList<>();
            doc.at("/components/schemas/PredictRequest/properties/mask_format/enum")
                    .forEach(f -> formats.add(f.asText()));
            assertEquals(Arrays.stream(MaskFormat.values()).map(Enum::name).toList(), formats);
        }
    }

    @Test
    void openApiStatesTheLimitsThisServerEnforces() throws Exception {
        try (FacadeHarness facade = FacadeHarness.start(Map.of(
                "SAM3_WORKERS_TOPIC", TestStack.uniqueTopic("workers"),
                "SAM3_REPLY_TOPIC", TestStack.uniqueTopic("replies"),
                "SAM3_MAX_PROMPTS", "7"))) {
            JsonNode request = json(facade.get("/openapi.json")).at("/components/schemas/PredictRequest/properties");
            assertEquals(1, request.at("/prompts/minItems").asInt());
            assertEquals(7, request.at("/prompts/maxItems").asInt(), "SAM3_MAX_PROMPTS of this server");
            assertEquals(1, request.at("/image/minLength").asInt());
            java.util.regex.Pattern image = java.util.regex.Pattern.compile(request.at("/image/pattern").asText());
            assertTrue(image.matcher("iVBORw0KGgo=").find());
            assertFalse(image.matcher("data:image/png;base64,iVBORw0KGgo=").find(), "a data: URL is not base64");
        }
    }
}
