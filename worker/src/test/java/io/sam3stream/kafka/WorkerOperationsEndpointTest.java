package io.sam3stream.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.sam3stream.config.Settings;
import io.sam3stream.operations.PrometheusText;
import io.sam3stream.schemas.Topics.ReplyHeaders;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A worker with {@code SAM3_WORKER_HTTP_PORT=0}, on the real broker and over real HTTP: its readiness probe turns
 * from 503 to 200 when warm-up is over, and its {@code /metrics} count exactly what it was sent.
 */
@ExtendWith(KafkaTestStack.class)
class WorkerOperationsEndpointTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /** The sample Grafana dashboard, from the repository root (tests run in the module's folder). */
    private static final Path DASHBOARD = Path.of("..", "deploy", "monitoring", "grafana", "dashboards",
            "sam3-worker.json");

    private record Answer(int status, String body) {}

    @Test
    void probesFollowTheWorkersPhasesAndMetricsCountWhatItCommitted() throws Exception {
        Map<String, String> env = KafkaTestStack.workerEnvironment("ops");
        env.put("SAM3_WORKER_HTTP_PORT", "0");
        Settings settings = Settings.from(env);
        CountDownLatch engineMayLoad = new CountDownLatch(1);
        WorkerService service = new WorkerService(settings, () -> {
            try {
                engineMayLoad.await(); // holds the worker in STARTING while the probes are read
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return TinyEngine.load(settings);
        });
        service.start();
        URI base = URI.create("http://127.0.0.1:" + service.httpPort().orElseThrow());
        try {
            Answer starting = awaitAnswer(base, "/health/ready", a -> a.body().contains("loading the engine"));
            assertEquals(503, starting.status());
            assertEquals("{\"status\":\"starting\",\"reason\":\"loading the engine\"}", starting.body());
            assertEquals(200, get(base, "/health/live").status(), "a starting worker is not to be restarted");
            assertEquals(0, scrape(base).value("sam3_worker_ready"));

            engineMayLoad.countDown();
            service.ready().get(RunningWorker.READY_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            assertEquals(new Answer(200, "{\"status\":\"ready\"}"), get(base, "/health/ready"));
            assertEquals(200, get(base, "/health/live").status());
            PrometheusText before = scrape(base);
            assertEquals(1, before.value("sam3_worker_ready"));
            assertEquals(0, before.value("sam3_worker_records_consumed_total"), "warm-up is not consumption");
            assertEquals(0, before.value("sam3_worker_results_total", "status", "OK"));
            assertEquals(1, before.value("sam3_worker_info", "backend", "cpu", "precision", "fp32", "worker_id",
                    service.config().workerId()));

            sendRequestsOfEveryOutcome(service.config());
            PrometheusText after = awaitScrape(base,
                    m -> m.value("sam3_worker_results_total", "status", "OK", "code", "none") == 2
                            && m.value("sam3_worker_results_total", "status", "ERROR", "code", "BAD_REQUEST") == 2
                            && m.value("sam3_worker_dead_letters_total", "reason", "WRONG_MAGIC_BYTE") == 1);
            assertEquals(5, after.value("sam3_worker_records_consumed_total"));
            assertEquals(4, after.find("sam3_worker_results_total").stream().mapToDouble(s -> s.value()).sum(),
                    "no other status or code moved");
            assertEquals(1, after.find("sam3_worker_dead_letters_total").stream().mapToDouble(s -> s.value()).sum());
            assertEquals(1, after.value("sam3_worker_reply_destination_problems_total",
                    "problem", "unknown_destination"));
            assertEquals(0, after.value("sam3_worker_reply_destination_problems_total",
                    "problem", "bad_partition_header"));

            assertEquals(5, after.value("sam3_worker_queue_wait_seconds_count"), "every record taken up");
            // three requests were segmented (the one with the lost reply topic too); the bad image never ran
            for (String stage : List.of("decode", "preprocess", "forward", "postprocess")) {
                assertEquals(3, after.value("sam3_worker_stage_seconds_count", "stage", stage), stage);
            }
            assertEquals(4, after.value("sam3_worker_stage_seconds_count", "stage", "encode"), "one per result");
            assertEquals(2, after.value("sam3_worker_request_seconds_count", "status", "OK"));
            assertEquals(2, after.value("sam3_worker_request_seconds_count", "status", "ERROR"));
            // one image for all three: encoded once, then from the cache; "cat" and "dog" encoded once each
            assertEquals(1, after.value("sam3_worker_model_module_seconds_count", "module", "image_encoder"));
            assertEquals(1, after.value("sam3_worker_model_module_seconds_count", "module", "text_encoder"));
            assertEquals(3, after.value("sam3_worker_model_module_seconds_count", "module", "grounding"));
            assertEquals(1, after.value("sam3_worker_cache_lookups_total", "cache", "image", "result", "miss"));
            assertEquals(2, after.value("sam3_worker_cache_lookups_total", "cache", "image", "result", "hit"));
            assertEquals(2, after.value("sam3_worker_cache_lookups_total", "cache", "text", "result", "miss"));
            assertEquals(2, after.value("sam3_worker_cache_lookups_total", "cache", "text", "result", "hit"));
            assertTrue(after.value("sam3_worker_transaction_commit_seconds_count") >= 1);
            double forwardSeconds = after.value("sam3_worker_stage_seconds_sum", "stage", "forward");
            double busySeconds = after.value("sam3_worker_device_busy_seconds_total");
            assertTrue(busySeconds >= forwardSeconds * 0.99 && busySeconds < forwardSeconds + 1,
                    "busy " + busySeconds + " s for forwards of " + forwardSeconds + " s");

            // the consumer's lag of the one request partition, once (Kafka's underscore copy of the name is dropped)
            PrometheusText lag = awaitScrape(base,
                    m -> !m.find("kafka_consumer_fetch_manager_records_lag", "partition", "0").isEmpty());
            assertEquals(0, lag.value("kafka_consumer_fetch_manager_records_lag", "partition", "0", "topic",
                    service.config().requestsTopic()), "every request was consumed");
            assertEquals(1, lag.find("kafka_consumer_fetch_manager_records_lag").size());
            assertDashboardAsksOnlyFor(lag);

            assertEquals(404, get(base, "/health/readyz").status());
            assertEquals(405, HTTP.send(HttpRequest.newBuilder(base.resolve("/metrics"))
                    .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString())
                    .statusCode());
        } finally {
            engineMayLoad.countDown();
            service.stop();
        }
        assertThrows(ConnectException.class, () -> get(base, "/health/live"), "the endpoint closes with the worker");
    }

    /**
     * Two OK results, an ERROR for an undecodable image, an ERROR for a reply topic that does not exist and a dead
     * letter; returns once all are committed.
     */
    private static void sendRequestsOfEveryOutcome(WorkerConfig config) {
        byte[] image = TestRequests.goldenImage();
        try (TestClients.Requests requests = new TestClients.Requests(config.requestsTopic())) {
            requests.send(TestRequests.request("two-prompts", image, "cat", "dog").build());
            requests.send(TestRequests.request("bad-image", "not a png".getBytes(StandardCharsets.UTF_8), "cat")
                    .build());
            requests.sendRaw("garbage".getBytes(StandardCharsets.UTF_8),
                    "{\"not\": \"avro\"}".getBytes(StandardCharsets.UTF_8), new RecordHeaders());
            requests.send(TestRequests.request("lost-reply", image, "cat").build(), new RecordHeaders()
                    .add(ReplyHeaders.REPLY_TOPIC, "ops.no-such-replies".getBytes(StandardCharsets.UTF_8)));
            requests.send(TestRequests.request("again", image, "cat").build());
        }
        TestClients.readCommittedKeys(config.resultsTopic(), List.of("two-prompts", "bad-image", "lost-reply",
                "again"), TIMEOUT);
        assertEquals(1, TestClients.readCommitted(config.deadLetterTopic(), 1, TIMEOUT).size());
    }

    /** Every series the sample dashboard queries is one this worker exports, once it has served requests. */
    private static void assertDashboardAsksOnlyFor(PrometheusText scraped) throws IOException {
        String dashboard = Files.readString(DASHBOARD);
        new ObjectMapper().readTree(dashboard); // valid JSON, or this throws
        Matcher names = Pattern.compile("\\b(?:sam3_worker|kafka_consumer)_[a-z_]+").matcher(dashboard);
        int checked = 0;
        while (names.find()) {
            assertTrue(!scraped.find(names.group()).isEmpty(), DASHBOARD + " queries " + names.group()
                    + ", which the worker does not export");
            checked++;
        }
        assertTrue(checked >= 10, "only " + checked + " series found in " + DASHBOARD);
    }

    private static Answer get(URI base, String path) throws IOException, InterruptedException {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(base.resolve(path))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        return new Answer(response.statusCode(), response.body());
    }

    private static PrometheusText scrape(URI base) throws IOException, InterruptedException {
        Answer metrics = get(base, "/metrics");
        assertEquals(200, metrics.status());
        return PrometheusText.parse(metrics.body());
    }

    private static Answer awaitAnswer(URI base, String path, Predicate<Answer> done) throws Exception {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        Answer answer = get(base, path);
        while (!done.test(answer)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(path + " still answers " + answer);
            }
            Thread.sleep(50);
            answer = get(base, path);
        }
        return answer;
    }

    /** Scrapes until {@code done} accepts the metrics (the counters move just after each commit). */
    private static PrometheusText awaitScrape(URI base, Predicate<PrometheusText> done) throws Exception {
        PrometheusText[] last = new PrometheusText[1];
        awaitAnswer(base, "/metrics", a -> done.test(last[0] = PrometheusText.parse(a.body())));
        return last[0];
    }
}
