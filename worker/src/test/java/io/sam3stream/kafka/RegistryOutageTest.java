package io.sam3stream.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sam3stream.avro.SegmentationResult;
import io.sam3stream.avro.Status;
import io.sam3stream.broker.LoopbackPorts;
import io.sam3stream.schemas.registry.SchemaRegistryClient;
import io.sam3stream.schemas.registry.embedded.EmbeddedSchemaRegistry;
import io.sam3stream.schemas.serde.AvroSerializer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** A schema registry that cannot be reached delays a request; it never dead-letters or drops it. */
@ExtendWith(KafkaTestStack.class)
class RegistryOutageTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(90);

    @Test
    void aRequestReadWhileTheRegistryIsDownIsAnsweredOnceItIsBack() throws Exception {
        InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), LoopbackPorts.free());
        Map<String, String> env = KafkaTestStack.workerEnvironment("outage");
        byte[] request;
        try (EmbeddedSchemaRegistry registry = EmbeddedSchemaRegistry.start(address,
                KafkaTestStack.bootstrapServers())) {
            AvroSerializer<io.sam3stream.avro.SegmentationRequest> serializer =
                    new AvroSerializer<>(SchemaRegistryClient.builder(registry.url()).build(), true);
            request = serializer.serialize(env.get("SAM3_REQUESTS_TOPIC"),
                    TestRequests.request("during-outage", TestRequests.goldenImage(), "cat").build());
            env.put("SCHEMA_REGISTRY_URL", registry.url().toString());
        }

        try (RunningWorker worker = RunningWorker.start(env)) {
            try (TestClients.Requests requests = new TestClients.Requests(worker.config().requestsTopic())) {
                requests.sendRaw("during-outage".getBytes(StandardCharsets.UTF_8), request, new RecordHeaders());
            }
            Thread.sleep(3000); // several attempts fail meanwhile
            assertEquals(List.of(), TestClients.readCommitted(worker.config().resultsTopic(), 1,
                    Duration.ofSeconds(1)), "no answer without the request's schema");

            try (EmbeddedSchemaRegistry back = EmbeddedSchemaRegistry.start(address,
                    KafkaTestStack.bootstrapServers())) {
                List<SegmentationResult> results = TestRequests.results(
                        TestClients.readCommitted(worker.config().resultsTopic(), 1, TIMEOUT),
                        SchemaRegistryClient.builder(back.url()).build());
                assertEquals(1, results.size());
                assertEquals("during-outage", results.get(0).getRequestId());
                assertEquals(Status.OK, results.get(0).getStatus());
                assertEquals(List.of(), TestClients.readCommitted(worker.config().deadLetterTopic(), 1,
                        Duration.ofSeconds(1)), "an unreachable registry is not a bad record");
                worker.stop(); // while the registry is up, so its last heartbeat gets out
            }
        }
    }

}
