package io.sam3stream.schemas.registry.embedded;

import static io.sam3stream.schemas.registry.embedded.TestSchemas.A_INT;
import static io.sam3stream.schemas.registry.embedded.TestSchemas.A_INT_B_DEFAULTED;
import static io.sam3stream.schemas.registry.embedded.TestSchemas.A_INT_B_REQUIRED;
import static io.sam3stream.schemas.registry.embedded.TestSchemas.A_STRING_DEFAULTED;
import static io.sam3stream.schemas.registry.embedded.TestSchemas.EMPTY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A registry backed by a Kafka topic keeps its ids, versions and levels across restarts. */
class EmbeddedSchemaRegistryPersistenceTest {

    private static final InetSocketAddress ANY_LOOPBACK_PORT =
            new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);

    private static KafkaClusterTestKit cluster;

    @BeforeAll
    static void startBroker() throws Exception {
        cluster = new KafkaClusterTestKit.Builder(new TestKitNodes.Builder()
                .setCombined(true).setNumBrokerNodes(1).setNumControllerNodes(1).build())
                .setConfigProp("offsets.topic.replication.factor", "1")
                .setConfigProp("transaction.state.log.replication.factor", "1")
                .setConfigProp("transaction.state.log.min.isr", "1")
                .build();
        cluster.format();
        cluster.startup();
        cluster.waitForReadyBrokers();
    }

    @AfterAll
    static void stopBroker() throws Exception {
        cluster.close();
    }

    private static EmbeddedSchemaRegistry start(String topic) throws IOException {
        return EmbeddedSchemaRegistry.start(ANY_LOOPBACK_PORT,
                new RegistryState(new KafkaRegistryStore(cluster.bootstrapServers(), topic)));
    }

    private static void writeState(String topic, String json) throws Exception {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(
                Map.of("bootstrap.servers", cluster.bootstrapServers()), new StringSerializer(),
                new StringSerializer())) {
            producer.send(new ProducerRecord<>(topic, 0, "state", json)).get();
        }
    }

    @Test
    void restartedRegistryServesTheSameIdsAndVersions() throws IOException {
        try (EmbeddedSchemaRegistry first = start("schemas-restart")) {
            RegistryHttp http = new RegistryHttp(first.url());
            http.register("a-value", A_INT);
            http.register("a-value", A_INT_B_DEFAULTED);
            http.register("b-value", EMPTY);
            http.put("/config/b-value", "{\"compatibility\":\"NONE\"}");
        }

        try (EmbeddedSchemaRegistry second = start("schemas-restart")) {
            RegistryHttp http = new RegistryHttp(second.url());
            assertEquals(A_INT.toString(), http.get("/schemas/ids/1").body().get("schema").asText());
            assertEquals(2, http.get("/subjects/a-value/versions/latest").body().get("id").asInt());
            assertEquals(3, http.get("/subjects/b-value/versions/1").body().get("id").asInt());
            assertEquals("NONE", http.get("/config/b-value").body().get("compatibilityLevel").asText());
            // ids keep counting from where the first run stopped, and rules still hold
            assertEquals(4, http.register("c-value", A_INT_B_REQUIRED));
            assertEquals(409, http.postSchema("/subjects/a-value/versions", A_STRING_DEFAULTED).status());
        }
    }

    @Test
    void deletesModesAndReferencesSurviveARestart() throws IOException {
        String point = "{\"type\":\"record\",\"name\":\"Point\",\"fields\":[{\"name\":\"x\",\"type\":\"int\"}]}";
        String shapeSchema =
                "{\"type\":\"record\",\"name\":\"Shape\",\"fields\":[{\"name\":\"p\",\"type\":\"Point\"}]}";
        String shape = "{\"schema\":" + quoted(shapeSchema)
                + ",\"references\":[{\"name\":\"Point\",\"subject\":\"Point\",\"version\":1}]}";
        try (EmbeddedSchemaRegistry first = start("schemas-deletes")) {
            RegistryHttp http = new RegistryHttp(first.url());
            // ids 1 and 2, then Point 3, Shape 4, and 5, the largest, which is deleted for good
            http.register("a-value", A_INT);
            http.register("a-value", A_INT_B_DEFAULTED);
            http.postSchema("/subjects/Point/versions", point);
            assertEquals(200, http.post("/subjects/shape-value/versions", shape).status());
            http.register("b-value", A_INT_B_REQUIRED);
            http.delete("/subjects/a-value/versions/1");
            http.delete("/subjects/b-value");
            http.delete("/subjects/b-value?permanent=true");
            http.put("/mode/a-value", "{\"mode\":\"READONLY\"}");
        }

        try (EmbeddedSchemaRegistry second = start("schemas-deletes")) {
            RegistryHttp http = new RegistryHttp(second.url());
            assertEquals("[2]", http.get("/subjects/a-value/versions").body().toString());
            assertEquals("[1,2]", http.get("/subjects/a-value/versions?deleted=true").body().toString());
            assertEquals(200, http.get("/schemas/ids/1").status());
            assertEquals(404, http.get("/schemas/ids/5").status());
            assertEquals("[\"Point\",\"a-value\",\"shape-value\"]",
                    http.get("/subjects?deleted=true").body().toString());
            assertEquals("READONLY", http.get("/mode/a-value").body().get("mode").asText());
            assertEquals(422, http.postSchema("/subjects/a-value/versions", A_STRING_DEFAULTED).status());
            assertEquals("Point", http.get("/schemas/ids/4").body().get("references").get(0).get("subject").asText());
            assertEquals("[4]", http.get("/subjects/Point/versions/1/referencedby").body().toString());
            // the permanently deleted id 5 is not given out again
            assertEquals(6, http.register("c-value", EMPTY));
        }
    }

    @Test
    void aStateSavedBeforeDeletesAndModesExistedStillLoads() throws Exception {
        start("schemas-legacy").close();
        writeState("schemas-legacy", "{\"compatibility\":\"BACKWARD\",\"subjectCompatibility\":{},"
                + "\"schemas\":{\"1\":" + quoted(A_INT.toString()) + ",\"2\":" + quoted(A_INT_B_DEFAULTED.toString())
                + "},\"subjects\":{\"s-value\":[1,2]}}");

        try (EmbeddedSchemaRegistry registry = start("schemas-legacy")) {
            RegistryHttp http = new RegistryHttp(registry.url());
            assertEquals("[1,2]", http.get("/subjects/s-value/versions").body().toString());
            assertEquals(2, http.get("/subjects/s-value/versions/latest").body().get("id").asInt());
            assertEquals("READWRITE", http.get("/mode").body().get("mode").asText());
            assertEquals(3, http.register("t-value", EMPTY));
        }
    }

    private static String quoted(String text) {
        return com.fasterxml.jackson.databind.node.TextNode.valueOf(text).toString();
    }

    @Test
    void unreadableStateStopsTheStartRatherThanResettingIds() throws Exception {
        start("schemas-garbage").close();
        writeState("schemas-garbage", "{\"schemas\": {\"1\": ");

        IOException failure = assertThrows(IOException.class, () -> start("schemas-garbage"));
        assertTrue(failure.getMessage().contains("schemas-garbage"), failure.getMessage());
    }

    @Test
    void stateReferringToAMissingSchemaStopsTheStart() throws Exception {
        start("schemas-dangling").close();
        writeState("schemas-dangling", "{\"compatibility\":\"BACKWARD\",\"schemas\":{},\"subjects\":{\"s-value\":[1]}}");

        assertThrows(IOException.class, () -> start("schemas-dangling"));
    }

    @Test
    void theStateTopicIsCompacted() throws Exception {
        start("schemas-compacted").close();
        try (var admin = org.apache.kafka.clients.admin.Admin.create(
                Map.of("bootstrap.servers", cluster.bootstrapServers()))) {
            var resource = new org.apache.kafka.common.config.ConfigResource(
                    org.apache.kafka.common.config.ConfigResource.Type.TOPIC, "schemas-compacted");
            String policy = admin.describeConfigs(java.util.List.of(resource)).all().get()
                    .get(resource).get("cleanup.policy").value();
            assertEquals("compact", policy);
        }
    }
}
