package io.sam3stream.containers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sam3stream.config.Settings;
import io.sam3stream.facade.FacadeConfig;
import io.sam3stream.facade.FacadeServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.images.builder.ImageFromDockerfile;
import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.utility.MountableFile;

/**
 * The deployed stack on a Docker engine: Kafka ({@code apache/kafka}, the version the project embeds), Confluent's
 * schema registry, the worker image built from the project's {@code Dockerfile} loading the tiny checkpoint, and
 * the facade (in this JVM, on the containers' mapped ports). It runs the smoke checks ({@code /health},
 * {@code /info}, a {@code /predict}), a job round trip, and a worker restart with a job submitted while the worker
 * is down. Without a Docker engine, or without the tiny checkpoint, every test is reported skipped with the
 * reason; the embedded-broker suites of the other modules are what always runs.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@ExtendWith(DockerStackCondition.class)
class StackOnDockerTest {

    private static final String KAFKA_IMAGE = "apache/kafka:4.3.1";
    private static final String REGISTRY_IMAGE = "confluentinc/cp-schema-registry:7.7.1";
    private static final Duration READY_WITHIN = Duration.ofMinutes(5);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @TempDir
    static Path jobState;

    private static Network network;
    private static KafkaContainer kafka;
    private static GenericContainer<?> registry;
    private static GenericContainer<?> worker;
    private static FacadeServer facade;

    @BeforeAll
    static void start() throws Exception {
        if (DockerStackCondition.whyNot().isPresent()) {
            return; // every test is disabled with the reason (DockerStackCondition)
        }
        Path tiny = DockerStackCondition.tinyCheckpointDir();
        Path root = Path.of(System.getProperty("sam3.project.root", "..")).toAbsolutePath().normalize();

        network = Network.newNetwork();
        kafka = new KafkaContainer(KAFKA_IMAGE).withNetwork(network).withListener("kafka:19092")
                .withEnv("KAFKA_MESSAGE_MAX_BYTES", "16777216");
        kafka.start();
        registry = new GenericContainer<>(REGISTRY_IMAGE).withNetwork(network).withNetworkAliases("schema-registry")
                .withEnv("SCHEMA_REGISTRY_HOST_NAME", "schema-registry")
                .withEnv("SCHEMA_REGISTRY_LISTENERS", "http://0.0.0.0:8081")
                .withEnv("SCHEMA_REGISTRY_KAFKASTORE_BOOTSTRAP_SERVERS", "PLAINTEXT://kafka:19092")
                .withExposedPorts(8081).waitingFor(Wait.forHttp("/subjects").forStatusCode(200));
        registry.start();
        worker = new GenericContainer<>(new ImageFromDockerfile("sam3-stream/worker-under-test", false)
                .withFileFromPath(".", root).withTarget("worker"))
                .withNetwork(network)
                .withCopyFileToContainer(MountableFile.forHostPath(tiny.resolve("sam3-tiny.pt")), "/weights/sam3.pt")
                .withCopyFileToContainer(MountableFile.forHostPath(tiny.resolve("config.json")),
                        "/weights/config.json")
                .withEnv("KAFKA_BOOTSTRAP_SERVERS", "kafka:19092")
                .withEnv("SCHEMA_REGISTRY_URL", "http://schema-registry:8081")
                .withEnv("SAM3_WORKER_ID", "container-worker-1")
                .withEnv("SAM3_WARMUP_RUNS", "1")
                .withCommand("--checkpoint", "/weights/sam3.pt", "--config", "/weights/config.json")
                .waitingFor(Wait.forLogMessage(".*READY.*", 1).withStartupTimeout(READY_WITHIN));
        worker.start();

        Map<String, String> env = new HashMap<>();
        env.put("KAFKA_BOOTSTRAP_SERVERS", kafka.getBootstrapServers());
        env.put("SCHEMA_REGISTRY_URL", "http://" + registry.getHost() + ":" + registry.getMappedPort(8081));
        env.put("SAM3_PORT", "0");
        env.put("SAM3_JOB_STATE_DIR", jobState.toString());
        facade = new FacadeServer(FacadeConfig.from(Settings.from(env), "127.0.0.1")).start();
        assertTrue(facade.awaitJobStore(Duration.ofMinutes(1)), "job store serving");
        awaitStatus("/health", 200, READY_WITHIN);
    }

    @AfterAll
    static void stop() {
        if (facade != null) {
            facade.stop();
        }
        for (AutoCloseable c : new AutoCloseable[] {worker, registry, kafka, network}) {
            try {
                if (c != null) {
                    c.close();
                }
            } catch (Exception e) {
                // best effort: the Ryuk container removes what is left
            }
        }
    }

    @Test
    @Order(1)
    void smokeChecksPass() throws Exception {
        JsonNode info = JSON.readTree(get("/info").body());
        assertTrue(info.toString().contains("container-worker-1"), info.toString());
        HttpResponse<String> predicted = post("/predict", predictBody("rocket"), null);
        assertEquals(200, predicted.statusCode(), predicted.body());
        JsonNode result = JSON.readTree(predicted.body());
        assertEquals("rocket", result.at("/results/0/prompt").asText());
        assertTrue(result.get("width").asInt() > 0);
    }

    @Test
    @Order(2)
    void aJobRoundTrips() throws Exception {
        HttpResponse<String> accepted = post("/v1/jobs", predictBody("rocket"), "container-job-1");
        assertEquals(202, accepted.statusCode(), accepted.body());
        JsonNode job = awaitJob("container-job-1", s -> s.equals("done"));
        assertEquals("rocket", job.at("/result/results/0/prompt").asText());
    }

    @Test
    @Order(3)
    void aJobSubmittedWhileTheWorkerRestartsFinishes() throws Exception {
        worker.getDockerClient().stopContainerCmd(worker.getContainerId()).withTimeout(30).exec();
        HttpResponse<String> accepted = post("/v1/jobs", predictBody("rocket"), "container-job-2");
        assertEquals(202, accepted.statusCode(), accepted.body());
        worker.getDockerClient().startContainerCmd(worker.getContainerId()).exec();
        JsonNode job = awaitJob("container-job-2", s -> s.equals("done"));
        assertEquals("rocket", job.at("/result/results/0/prompt").asText());
        awaitStatus("/health", 200, READY_WITHIN);
        assertEquals(200, post("/predict", predictBody("rocket"), null).statusCode());
    }

    private static String predictBody(String prompt) throws Exception {
        Path image = Path.of(System.getProperty("sam3.project.root", ".."), "media", "rocket.jpg");
        ObjectNode body = JSON.createObjectNode();
        body.put("image", Base64.getEncoder().encodeToString(Files.readAllBytes(image)));
        body.putArray("prompts").add(prompt);
        body.put("mask_format", "rle_compressed");
        return body.toString();
    }

    private static JsonNode awaitJob(String id, Predicate<String> status) throws Exception {
        long end = System.nanoTime() + READY_WITHIN.toNanos();
        while (System.nanoTime() < end) {
            HttpResponse<String> r = get("/v1/jobs/" + id);
            if (r.statusCode() == 200) {
                JsonNode job = JSON.readTree(r.body());
                if (status.test(job.get("status").asText())) {
                    return job;
                }
            }
            Thread.sleep(500);
        }
        throw new AssertionError("job " + id + " did not finish within " + READY_WITHIN);
    }

    private static void awaitStatus(String path, int status, Duration within) throws Exception {
        long end = System.nanoTime() + within.toNanos();
        while (get(path).statusCode() != status) {
            if (System.nanoTime() > end) {
                throw new AssertionError(path + " did not answer " + status + " within " + within);
            }
            Thread.sleep(500);
        }
    }

    private static HttpResponse<String> get(String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(uri(path)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> post(String path, String body, String idempotencyKey) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri(path)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (idempotencyKey != null) {
            request.header("Idempotency-Key", idempotencyKey);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static URI uri(String path) {
        return URI.create("http://127.0.0.1:" + facade.port() + path);
    }
}
