package io.sam3stream.facade;

import static io.sam3stream.facade.testing.FacadeHarness.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.sam3stream.facade.testing.Bodies;
import io.sam3stream.facade.testing.FacadeHarness;
import io.sam3stream.facade.testing.FakeWorker;
import io.sam3stream.facade.testing.TestStack;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Two facade instances sharing one reply topic (its partitions leased through their consumer group) and two
 * workers in one group: 64 clients at once, each must get its own result, none lost and none crossed.
 */
@ExtendWith(TestStack.class)
class ConcurrentClientsTest {

    private static final int CLIENTS = 64;
    private static final int REPLY_PARTITIONS = 4;

    @Test
    void everyConcurrentClientGetsItsOwnResult() throws Exception {
        String requests = TestStack.uniqueTopic("requests");
        String workersTopic = TestStack.uniqueTopic("workers");
        String replies = TestStack.uniqueTopic("replies");
        String group = TestStack.uniqueTopic("group");
        TestStack.createTopics(4, Map.of(requests, false));
        TestStack.createTopics(1, Map.of(workersTopic, true));
        Map<String, String> env = Map.of(
                "SAM3_REQUESTS_TOPIC", requests,
                "SAM3_WORKERS_TOPIC", workersTopic,
                "SAM3_REPLY_TOPIC", replies,
                "SAM3_TOPIC_PARTITIONS", Integer.toString(REPLY_PARTITIONS),
                "SAM3_MAX_IN_FLIGHT", Integer.toString(CLIENTS),
                "SAM3_REPLY_TIMEOUT_MS", "30000");
        try (FakeWorker a = new FakeWorker("worker-a", group, requests, workersTopic).ready();
                FakeWorker b = new FakeWorker("worker-b", group, requests, workersTopic).ready();
                FacadeHarness one = FacadeHarness.start(env);
                FacadeHarness two = FacadeHarness.start(env)) {
            one.awaitHealthy();
            two.awaitHealthy();
            // the lease has settled once the two instances split the partitions between them
            FacadeHarness.awaitTrue(Duration.ofSeconds(30),
                    () -> ownedReplyPartitions(one).size() + ownedReplyPartitions(two).size() == REPLY_PARTITIONS);
            Set<Integer> owned = new HashSet<>(ownedReplyPartitions(one));
            assertTrue(ownedReplyPartitions(two).stream().noneMatch(owned::contains), "each partition has one owner");

            List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
            for (int i = 0; i < CLIENTS; i++) {
                FacadeHarness facade = i % 2 == 0 ? one : two;
                calls.add(facade.predictAsync(Bodies.predict(100 + i, 50 + i, "object-" + i).toString()));
            }

            Set<String> requestIds = new HashSet<>();
            for (int i = 0; i < CLIENTS; i++) {
                HttpResponse<String> response = calls.get(i).get();
                assertEquals(200, response.statusCode(), response.body());
                JsonNode json = json(response);
                assertEquals(100 + i, json.get("width").asInt(), "client " + i + " got another's result");
                assertEquals(50 + i, json.get("height").asInt());
                assertEquals("object-" + i, json.get("results").get(0).get("prompt").asText());
                requestIds.add(json.get("request_id").asText());
            }
            assertEquals(CLIENTS, requestIds.size());
            assertEquals(CLIENTS, a.received().size() + b.received().size(), "each request was served once");
        }
    }

    private static List<Integer> ownedReplyPartitions(FacadeHarness facade) {
        List<Integer> owned = new ArrayList<>();
        json(facade.get("/info")).get("runtime").get("reply_partitions").forEach(p -> owned.add(p.asInt()));
        return owned;
    }
}
