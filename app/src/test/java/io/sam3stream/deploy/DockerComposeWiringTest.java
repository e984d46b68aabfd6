package io.sam3stream.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import io.sam3stream.config.Knob;
import io.sam3stream.operations.OperationsServer;
import java.net.URI;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** docker-compose.yml is wired the way the code reads its configuration (Docker itself cannot run here). */
class DockerComposeWiringTest {

    private static final ComposeFile COMPOSE = ComposeFile.load();
    private static final List<String> CLIENTS = List.of("worker", "facade");

    /** Knobs that must have one value in every process of the deployment, or requests and replies miss. */
    private static final List<Knob> SHARED = List.of(Knob.KAFKA_BOOTSTRAP_SERVERS, Knob.SCHEMA_REGISTRY_URL,
            Knob.SAM3_MAX_MESSAGE_BYTES, Knob.SAM3_TOPIC_PARTITIONS, Knob.SAM3_REQUESTS_TOPIC,
            Knob.SAM3_WORKERS_TOPIC);

    /** A host and port from a listener or bootstrap list, with any {@code NAME://} prefix removed. */
    private record Endpoint(String host, int port) {
        static List<Endpoint> parseList(String list) {
            return Arrays.stream(list.split(",")).map(String::trim).map(e -> {
                String hostPort = e.contains("://") ? e.substring(e.indexOf("://") + 3) : e;
                int colon = hostPort.lastIndexOf(':');
                return new Endpoint(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1)));
            }).toList();
        }
    }

    @Test
    void declaresTheBrokerTheRegistryTheWorkerAndTheFacadeAndMonitoringOnlyOnRequest() {
        Set<String> always = COMPOSE.services().values().stream().filter(s -> s.profiles().isEmpty())
                .map(ComposeService::name).collect(Collectors.toSet());
        assertEquals(Set.of("kafka", "schema-registry", "worker", "facade"), always);
        for (String monitoring : MonitoringConfigTest.SERVICES) {
            assertEquals(List.of(MonitoringConfigTest.PROFILE), COMPOSE.service(monitoring).profiles(), monitoring);
        }
        assertEquals(always.size() + MonitoringConfigTest.SERVICES.size(), COMPOSE.services().size());
        assertTrue(COMPOSE.service("kafka").image().startsWith("apache/kafka:"));
        assertTrue(COMPOSE.service("schema-registry").image().startsWith("confluentinc/cp-schema-registry:"));
    }

    @Test
    void facadeServesTheSeedsPortAndItsHealthCheckProbesIt() {
        ComposeService facade = COMPOSE.service("facade");
        String port = ServiceVariables.resolved(facade.environment(), Knob.SAM3_PORT);
        assertEquals("20000", port);
        assertTrue(facade.ports().contains("20000:" + port), "published ports " + facade.ports());
        assertTrue(facade.healthcheck().orElse("").contains("http://localhost:" + port + "/health"),
                "facade health check: " + facade.healthcheck());
    }

    @Test
    void workerAndFacadeSetOnlyVariablesTheCodeReads() {
        for (String client : CLIENTS) {
            for (String name : COMPOSE.service(client).environment().keySet()) {
                assertTrue(ServiceVariables.isRead(name), client + " sets " + name
                        + ", which is neither a Knob nor a KAFKA_ variable naming a Kafka client property");
            }
        }
    }

    @Test
    void clientsBootstrapFromAListenerTheBrokerAdvertisesInsideTheNetwork() {
        ComposeService kafka = COMPOSE.service("kafka");
        List<Endpoint> advertised = Endpoint.parseList(kafka.environment().get("KAFKA_ADVERTISED_LISTENERS"));
        for (String client : CLIENTS) {
            String bootstrap = ServiceVariables.resolved(COMPOSE.service(client).environment(),
                    Knob.KAFKA_BOOTSTRAP_SERVERS);
            assertReachesBroker(client, Endpoint.parseList(bootstrap), kafka, advertised);
        }
        assertReachesBroker("schema-registry", Endpoint.parseList(COMPOSE.service("schema-registry").environment()
                .get("SCHEMA_REGISTRY_KAFKASTORE_BOOTSTRAP_SERVERS")), kafka, advertised);
    }

    private static void assertReachesBroker(String client, List<Endpoint> bootstrap, ComposeService kafka,
            List<Endpoint> advertised) {
        for (Endpoint e : bootstrap) {
            assertTrue(kafka.isReachableAs(e.host()), client + " bootstraps from " + e + ", not the kafka service");
            // the broker answers with its advertised endpoints, so the client must be on one it can resolve
            assertTrue(advertised.contains(e), client + " bootstraps from " + e + ", which is not advertised: "
                    + advertised);
        }
    }

    @Test
    void clientsReachTheRegistryOnItsListenerPort() {
        ComposeService registry = COMPOSE.service("schema-registry");
        int listenerPort = URI.create(registry.environment().get("SCHEMA_REGISTRY_LISTENERS")).getPort();
        for (String client : CLIENTS) {
            URI url = URI.create(ServiceVariables.resolved(COMPOSE.service(client).environment(),
                    Knob.SCHEMA_REGISTRY_URL));
            assertTrue(registry.isReachableAs(url.getHost()), client + " looks for the registry at " + url);
            assertEquals(listenerPort, url.getPort(), client + " registry port");
        }
    }

    @Test
    void workerAndFacadeAgreeOnTheSharedKafkaSettings() {
        Map<String, String> worker = COMPOSE.service("worker").environment();
        Map<String, String> facade = COMPOSE.service("facade").environment();
        for (Knob knob : SHARED) {
            assertEquals(ServiceVariables.resolved(worker, knob), ServiceVariables.resolved(facade, knob),
                    knob + " differs between worker and facade");
        }
    }

    @Test
    void brokerAcceptsTheLargestRecordTheClientsAreSizedFor() {
        String brokerLimit = COMPOSE.service("kafka").environment().get("KAFKA_MESSAGE_MAX_BYTES");
        assertTrue(brokerLimit != null, "the broker keeps Kafka's 1 MiB default message.max.bytes");
        for (String client : CLIENTS) {
            long clientLimit = Long.parseLong(ServiceVariables.resolved(COMPOSE.service(client).environment(),
                    Knob.SAM3_MAX_MESSAGE_BYTES));
            assertTrue(Long.parseLong(brokerLimit) >= clientLimit,
                    "broker message.max.bytes " + brokerLimit + " < " + client + " SAM3_MAX_MESSAGE_BYTES "
                            + clientLimit);
        }
    }

    @Test
    void everyServiceReportsHealthAndWaitsForHealthyDependencies() {
        for (ComposeService service : COMPOSE.services().values()) {
            assertTrue(service.healthcheck().isPresent(), service.name() + " has no health check");
            service.dependsOn().forEach((dependency, condition) -> {
                assertTrue(COMPOSE.services().containsKey(dependency),
                        service.name() + " depends on undeclared " + dependency);
                assertEquals("service_healthy", condition, service.name() + " -> " + dependency);
            });
        }
        for (String client : CLIENTS) {
            assertEquals(Set.of("kafka", "schema-registry"), COMPOSE.service(client).dependsOn().keySet(), client);
        }
    }

    @Test
    void workerReadsTheHfCacheFromAReadOnlyMount() {
        ComposeService worker = COMPOSE.service("worker");
        String hubCache = worker.environment().get("HF_HUB_CACHE");
        assertTrue(hubCache != null, "the worker must be told where the mounted hub cache is");
        JsonNode mount = worker.volumes().stream()
                .filter(v -> v.path("target").asText().equals(hubCache)).findFirst()
                .orElseGet(() -> fail("no long-syntax volume mounted at HF_HUB_CACHE " + hubCache));
        assertEquals("bind", mount.path("type").asText());
        assertTrue(mount.path("read_only").asBoolean(false), "the HF cache mount must be read-only");
        assertFalse(mount.path("source").asText().isBlank());
    }

    @Test
    void workerHealthCheckAsksTheReadinessProbeOnThePortTheWorkerServes() {
        ComposeService worker = COMPOSE.service("worker");
        String port = workerHttpPort();
        assertTrue(Integer.parseInt(port) > 0, "the worker serves no probes: SAM3_WORKER_HTTP_PORT=" + port);
        assertTrue(worker.healthcheck().orElse("").contains("http://localhost:" + port + OperationsServer.READY),
                "worker health check " + worker.healthcheck());
        assertTrue(worker.expose().contains(port), "Prometheus reaches the worker on " + port + ": " + worker.expose());
        // a fixed host port would stop `--scale worker=N`: each replica gets a free one
        assertTrue(worker.ports().stream().allMatch(p -> p.equals(port)), "published ports " + worker.ports());
        assertEquals(port, ServiceVariables.resolved(Map.of("SAM3_WORKER_HTTP_PORT",
                dockerfileEnv("SAM3_WORKER_HTTP_PORT")), Knob.SAM3_WORKER_HTTP_PORT), "the image's own default");
        assertTrue(Dockerfile.load().stage("worker").exposed().contains(port), "the worker image exposes " + port);
    }

    /** The port the compose worker serves {@code /metrics} and its probes on. */
    static String workerHttpPort() {
        return ServiceVariables.resolved(COMPOSE.service("worker").environment(), Knob.SAM3_WORKER_HTTP_PORT);
    }

    private static String dockerfileEnv(String name) {
        return Dockerfile.load().stage("worker").instructions().stream().filter(i -> i.keyword().equals("ENV"))
                .map(i -> i.arguments().trim()).filter(a -> a.startsWith(name + "="))
                .map(a -> a.substring(name.length() + 1)).findFirst()
                .orElseThrow(() -> new AssertionError("the worker image sets no " + name));
    }

    @Test
    void workerRunsTheCpuBackend() {
        assertEquals("cpu", ServiceVariables.resolved(COMPOSE.service("worker").environment(), Knob.SAM3_BACKEND));
    }
}
