package io.sam3stream.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sam3stream.config.Knob;
import io.sam3stream.operations.OperationsServer;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * deploy/monitoring (Prometheus scrape configuration, Grafana provisioning and dashboard) is wired to the compose
 * stack the way the services actually listen.
 */
class MonitoringConfigTest {

    /** The compose profile that starts the monitoring services. */
    static final String PROFILE = "monitoring";
    static final List<String> SERVICES = List.of("prometheus", "grafana");

    private static final String FOLDER = "deploy/monitoring/";
    private static final ComposeFile COMPOSE = ComposeFile.load();
    private static final JsonNode PROMETHEUS = RepositoryFiles.yaml(FOLDER + "prometheus.yml");

    @Test
    void prometheusScrapesEveryWorkerReplicaOnItsMetricsPort() {
        JsonNode job = job("sam3-worker");
        assertEquals(OperationsServer.METRICS, job.path("metrics_path").asText());
        JsonNode dns = job.path("dns_sd_configs").path(0);
        assertEquals("A", dns.path("type").asText(), "one target per replica address");
        assertTrue(COMPOSE.service("worker").isReachableAs(dns.path("names").path(0).asText()), dns.toString());
        assertEquals(DockerComposeWiringTest.workerHttpPort(), dns.path("port").asText());
    }

    @Test
    void prometheusScrapesTheFacadeOnItsPort() {
        JsonNode job = job("sam3-facade");
        assertEquals("/metrics", job.path("metrics_path").asText());
        String port = ServiceVariables.resolved(COMPOSE.service("facade").environment(), Knob.SAM3_PORT);
        assertEquals("facade:" + port, job.path("static_configs").path(0).path("targets").path(0).asText());
    }

    @Test
    void composeMountsTheFilesOfThisFolderWhereEachServiceReadsThem() {
        Map<String, String> prometheus = binds("prometheus");
        assertEquals("/etc/prometheus/prometheus.yml", prometheus.get(FOLDER + "prometheus.yml"));
        Map<String, String> grafana = binds("grafana");
        assertEquals("/etc/grafana/provisioning", grafana.get(FOLDER + "grafana/provisioning"));
        JsonNode provider = RepositoryFiles.yaml(FOLDER + "grafana/provisioning/dashboards/sam3-stream.yml")
                .path("providers").path(0);
        assertEquals(provider.path("options").path("path").asText(), grafana.get(FOLDER + "grafana/dashboards"),
                "the dashboards folder is mounted where the provider looks");
        URI source = URI.create(RepositoryFiles.yaml(FOLDER + "grafana/provisioning/datasources/prometheus.yml")
                .path("datasources").path(0).path("url").asText());
        assertTrue(COMPOSE.service("prometheus").isReachableAs(source.getHost()), source.toString());
        assertTrue(COMPOSE.service("prometheus").ports().contains(source.getPort() + ":" + source.getPort()));
    }

    @Test
    void theDashboardIsValidJsonAndEveryPanelQueriesTheSelectedDataSource() throws IOException {
        JsonNode dashboard = new ObjectMapper().readTree(
                Files.readString(RepositoryFiles.file(FOLDER + "grafana/dashboards/sam3-worker.json")));
        JsonNode variable = dashboard.path("templating").path("list").path(0);
        assertEquals("datasource", variable.path("type").asText());
        String selected = "${" + variable.path("name").asText() + "}";
        Set<Integer> ids = new HashSet<>();
        assertTrue(dashboard.path("panels").size() >= 10, "panels for every group of worker metrics");
        for (JsonNode panel : dashboard.path("panels")) {
            String title = panel.path("title").asText();
            assertTrue(ids.add(panel.path("id").asInt()), "duplicate panel id: " + title);
            assertEquals(selected, panel.path("datasource").path("uid").asText(), title);
            assertFalse(panel.path("targets").isEmpty(), title + " has no query");
            panel.path("targets").forEach(t -> assertFalse(t.path("expr").asText().isBlank(), title));
        }
    }

    private static JsonNode job(String name) {
        for (JsonNode job : PROMETHEUS.path("scrape_configs")) {
            if (job.path("job_name").asText().equals(name)) {
                return job;
            }
        }
        throw new AssertionError(FOLDER + "prometheus.yml has no job " + name);
    }

    /** A service's short-syntax bind mounts of repository files: repository path → container path. */
    private static Map<String, String> binds(String service) {
        Map<String, String> binds = new LinkedHashMap<>();
        for (JsonNode volume : COMPOSE.service(service).volumes()) {
            String[] parts = volume.asText().split(":");
            if (parts.length >= 2 && parts[0].startsWith("./")) {
                String source = parts[0].substring(2);
                assertTrue(Files.exists(RepositoryFiles.file(source)), service + " mounts " + source
                        + ", which the repository lacks");
                binds.put(source, parts[1]);
            }
        }
        return binds;
    }
}
