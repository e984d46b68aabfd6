package io.sam3stream.facade;

import static io.sam3stream.facade.testing.FacadeHarness.awaitTrue;
import static io.sam3stream.facade.testing.FacadeHarness.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sam3stream.avro.Prompt;
import io.sam3stream.avro.SegmentationRequest;
import io.sam3stream.facade.testing.Bodies;
import io.sam3stream.facade.testing.FacadeHarness;
import io.sam3stream.facade.testing.FakeWorker;
import io.sam3stream.facade.testing.JobTestTopics;
import io.sam3stream.facade.testing.TestImages;
import io.sam3stream.facade.testing.TestStack;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The job API on two facade instances sharing one job store (one Kafka Streams application), a real broker and a
 * worker that knows only the contract: a job submitted on either is readable on both, a resubmitted id is forwarded
 * once, a result straight from Kafka is a job too, and a restarted instance keeps what it knew and learns what
 * happened while it was down. The last test restarts instance A and the worker.
 */
@ExtendWith(TestStack.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class JobsTest {

    private static final Duration DONE_WITHIN = Duration.ofSeconds(30);

    @TempDir
    static Path stateA;
    @TempDir
    static Path stateB;

    private static JobTestTopics topics;
    private static String group;
    private static FakeWorker worker;
    private static FacadeHarness a;
    private static FacadeHarness b;

    @BeforeAll
    static void start() throws Exception {
        topics = new JobTestTopics().create();
        group = TestStack.uniqueTopic("group");
        worker = topics.worker("worker-a", group);
        a = FacadeHarness.start(topics.facadeEnv(stateA, "24h"));
        b = FacadeHarness.start(topics.facadeEnv(stateB, "24h"));
        a.awaitHealthy().awaitJobStore();
        b.awaitHealthy().awaitJobStore();
    }

    @AfterAll
    static void stop() {
        a.close();
        b.close();
        worker.close();
    }

    @Test
    @Order(1)
    void aJobSubmittedOnEitherInstanceIsReadableOnBoth() throws Exception {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            FacadeHarness via = i % 2 == 0 ? a : b;
            HttpResponse<String> accepted = via.submitJob(Bodies.predict(64, 32, "cat " + i).toString(), null);
            assertEquals(202, accepted.statusCode(), accepted.body());
            JsonNode body = json(accepted);
            String id = body.get("job_id").asText();
            assertEquals("/v1/jobs/" + id, accepted.headers().firstValue("Location").orElseThrow());
            assertEquals("/v1/jobs/" + id, body.at("/links/self").asText());
            assertTrue(body.get("submitted_at").isTextual(), accepted.body());
            // read-your-writes: the instance that accepted it finds it at once
            assertEquals(200, via.get("/v1/jobs/" + id).statusCode());
            ids.add(id);
        }
        for (int i = 0; i < ids.size(); i++) {
            for (FacadeHarness facade : List.of(a, b)) {
                JsonNode job = awaitStatus(facade, ids.get(i), "done");
                assertEquals(ids.get(i), job.get("job_id").asText());
                assertEquals("cat " + i, job.at("/result/results/0/prompt").asText());
                assertEquals(64, job.at("/result/width").asInt());
                assertEquals(ids.get(i), job.at("/result/request_id").asText());
                assertTrue(job.get("finished_at").isTextual());
                assertTrue(job.get("submitted_at").isTextual());
            }
        }
    }

    @Test
    @Order(2)
    void resubmittingAnIdReturnsTheSameJobAndForwardsItOnce() throws Exception {
        // concurrent submissions of one id on both instances, before any of them is in the store: the index drops
        // all but the first
        List<CompletableFuture<HttpResponse<String>>> racing = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            FacadeHarness via = i % 2 == 0 ? a : b;
            ObjectNode body = Bodies.predict(40, 20, "first " + i);
            if (i % 3 == 0) {
                body.put("job_id", "retry-1");
                racing.add(via.submitJobAsync(body.toString(), null));
            } else {
                racing.add(via.submitJobAsync(body.toString(), "retry-1"));
            }
        }
        for (CompletableFuture<HttpResponse<String>> r : racing) {
            HttpResponse<String> response = r.get();
            assertEquals(202, response.statusCode(), response.body());
            assertEquals("retry-1", json(response).get("job_id").asText());
        }
        JsonNode done = awaitStatus(b, "retry-1", "done");
        // once done, a resubmission answers with the job as it is and writes nothing
        HttpResponse<String> again = a.submitJob(Bodies.predict(40, 20, "other").toString(), "retry-1");
        assertEquals(202, again.statusCode());
        assertEquals("done", json(again).get("status").asText());
        Thread.sleep(1000); // room for a second forward to show up, were there one
        assertEquals(1, topics.requestCounts().get("retry-1"), "forwards of retry-1");
        assertEquals(done, json(a.get("/v1/jobs/retry-1")));
        assertTrue(done.at("/result/results/0/prompt").asText().startsWith("first "));
    }

    @Test
    @Order(3)
    void malformedIdsAndBodiesAreRefusedAsPredictRefusesThem() {
        String body = Bodies.predict(40, 20, "cat").toString();
        refused(a.submitJob(body, "has space"), 400, "BAD_REQUEST", "Idempotency-Key");
        ObjectNode named = Bodies.predict(40, 20, "cat");
        named.put("job_id", "x");
        refused(a.submitJob(named.toString(), "y"), 422, "UNPROCESSABLE_ENTITY", "different jobs");
        named.put("job_id", 5);
        refused(a.submitJob(named.toString(), null), 422, "UNPROCESSABLE_ENTITY", "job_id");
        ObjectNode noPrompts = Bodies.predict(40, 20);
        refused(a.submitJob(noPrompts.toString(), "no-prompts"), 400, "BAD_REQUEST", "prompts");
        refused(a.submitJob("{", "broken"), 422, "UNPROCESSABLE_ENTITY", "malformed JSON");
        // a refused submission leaves no job behind
        assertEquals(404, a.get("/v1/jobs/no-prompts").statusCode());
    }

    @Test
    @Order(4)
    void anUnknownIdIsNotFound() {
        refused(a.get("/v1/jobs/never-submitted"), 404, "NOT_FOUND", "never-submitted");
        String tooLong = "x".repeat(129); // no job can have it: the store is not even asked
        refused(b.get("/v1/jobs/" + tooLong), 404, "NOT_FOUND", "no job " + tooLong);
    }

    @Test
    @Order(5)
    void aResultOfARequestStraightFromKafkaIsAJob() throws Exception {
        topics.produceRequest(SegmentationRequest.newBuilder()
                .setRequestId("event-1")
                .setImage(ByteBuffer.wrap(TestImages.pngHeader(30, 10)))
                .setPrompts(List.of(Prompt.newBuilder().setText("tree").build()))
                .build());
        for (FacadeHarness facade : List.of(a, b)) {
            JsonNode job = awaitStatus(facade, "event-1", "done");
            assertTrue(job.get("submitted_at").isNull(), job.toString());
            assertEquals("tree", job.at("/result/results/0/prompt").asText());
        }
    }

    @Test
    @Order(6)
    void aWorkersErrorIsTheJobsError() throws Exception {
        HttpResponse<String> accepted = b.submitJob(Bodies.predict(40, 20, "error:BAD_REQUEST:cannot decode")
                .toString(), "failing-1");
        assertEquals(202, accepted.statusCode());
        JsonNode job = awaitStatus(a, "failing-1", "error");
        assertEquals("BAD_REQUEST", job.at("/error/error").asText());
        assertEquals("cannot decode", job.at("/error/detail").asText());
        assertEquals(400, job.at("/error/http_status").asInt());
        assertFalse(job.has("result"));
    }

    @Test
    @Order(7)
    void theOpenApiDocumentDescribesTheJobEndpoints() {
        JsonNode doc = json(a.get("/openapi.json"));
        assertTrue(doc.at("/paths/~1v1~1jobs/post/responses/202").isObject(), "POST /v1/jobs");
        assertTrue(doc.at("/paths/~1v1~1jobs~1{job_id}/get/responses/404").isObject(), "GET /v1/jobs/{job_id}");
        assertTrue(doc.at("/components/schemas/Job/properties/status").isObject());
    }

    @Test
    @Order(8)
    void aRestartedInstanceKeepsItsJobsAndNothingIsLostOrForwardedTwice() throws Exception {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            if (i == 10) {
                a.close(); // instance A stops; B takes its partitions of the index over
            }
            if (i == 20) {
                worker.close(); // and the worker restarts
                worker = topics.worker("worker-a", group);
            }
            if (i == 30) {
                a = FacadeHarness.start(topics.facadeEnv(stateA, "24h"));
                a.awaitJobStore();
            }
            FacadeHarness via = i % 2 == 0 && (i < 10 || i >= 30) ? a : b;
            String id = "restart-" + i;
            HttpResponse<String> accepted = via.submitJob(Bodies.predict(48, 24, "dog " + i).toString(), id);
            assertEquals(202, accepted.statusCode(), accepted.body());
            ids.add(id);
        }
        for (String id : ids) {
            awaitStatus(b, id, "done");
            awaitStatus(a, id, "done");
        }
        // what the instance knew before its restart, and what happened while it was down
        assertEquals(200, a.get("/v1/jobs/retry-1").statusCode());
        assertEquals(200, a.get("/v1/jobs/event-1").statusCode());
        Map<String, Integer> forwards = topics.requestCounts();
        for (String id : ids) {
            assertEquals(1, forwards.get(id), "forwards of " + id);
        }
    }

    /** Asserts an error response: its status, error name and a part of its detail. */
    static void refused(HttpResponse<String> response, int status, String error, String detailPart) {
        assertEquals(status, response.statusCode(), response.body());
        assertEquals(error, json(response).get("error").asText(), response.body());
        assertTrue(json(response).get("detail").asText().contains(detailPart), response.body());
    }

    /** Polls a job on one instance until it has this status, and returns it. */
    static JsonNode awaitStatus(FacadeHarness facade, String id, String status) throws InterruptedException {
        JsonNode[] last = new JsonNode[1];
        try {
            awaitTrue(DONE_WITHIN, () -> {
                HttpResponse<String> r = facade.get("/v1/jobs/" + id);
                last[0] = r.statusCode() == 200 ? json(r) : null;
                return last[0] != null && status.equals(last[0].get("status").asText());
            });
        } catch (AssertionError e) {
            throw new AssertionError("job " + id + " not " + status + " within " + DONE_WITHIN + "; last: " + last[0]);
        }
        return last[0];
    }
}
