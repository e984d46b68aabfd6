package io.sam3stream.facade;

import static io.sam3stream.facade.testing.FacadeHarness.awaitTrue;
import static io.sam3stream.facade.testing.FacadeHarness.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sam3stream.facade.testing.Bodies;
import io.sam3stream.facade.testing.FacadeHarness;
import io.sam3stream.facade.testing.FakeWorker;
import io.sam3stream.facade.testing.JobTestTopics;
import io.sam3stream.facade.testing.TestStack;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The job API's goal run: 1,000 jobs submitted through two facades while one facade and the worker are restarted.
 * Every job ends {@code done}, readable on both facades, forwarded to the workers exactly once, and gone from both
 * once its retention has passed. The worker answers without a model ({@link FakeWorker}): what is tested is the
 * job store, not segmentation. A few minutes on two cores, so it runs with the reliability group.
 */
@Tag("reliability")
@ExtendWith(TestStack.class)
class JobsAtScaleTest {

    private static final int JOBS = 1000;
    private static final Duration RETENTION = Duration.ofSeconds(120);
    private static final Duration DONE_WITHIN = Duration.ofMinutes(3);
    private static final int IN_FLIGHT = 16;

    @TempDir
    Path stateA;
    @TempDir
    Path stateB;

    @Test
    void aThousandJobsThroughTwoFacadesAndRestartsEndDoneOnceEverywhereAndExpire() throws Exception {
        JobTestTopics topics = new JobTestTopics().create();
        String group = TestStack.uniqueTopic("group");
        String retention = RETENTION.toSeconds() + "s";
        FakeWorker worker = topics.worker("worker-s", group);
        FacadeHarness a = FacadeHarness.start(topics.facadeEnv(stateA, retention));
        FacadeHarness b = FacadeHarness.start(topics.facadeEnv(stateB, retention));
        try {
            a.awaitHealthy().awaitJobStore();
            b.awaitHealthy().awaitJobStore();
            List<String> ids = new ArrayList<>();
            List<CompletableFuture<HttpResponse<String>>> accepted = new ArrayList<>();
            for (int i = 0; i < JOBS; i++) {
                if (i == JOBS / 4) {
                    awaitAccepted(accepted);
                    a.close(); // instance A stops; B takes its share of the index over
                }
                if (i == JOBS / 2) {
                    worker.close(); // the worker restarts
                    worker = topics.worker("worker-s", group);
                }
                if (i == 3 * JOBS / 4) {
                    awaitAccepted(accepted);
                    a = FacadeHarness.start(topics.facadeEnv(stateA, retention));
                    a.awaitJobStore();
                }
                boolean aIsUp = i < JOBS / 4 || i >= 3 * JOBS / 4;
                FacadeHarness via = aIsUp && i % 2 == 0 ? a : b;
                String id = "scale-" + i;
                ids.add(id);
                accepted.add(via.submitJobAsync(Bodies.predict(32, 16, "thing " + i).toString(), id));
                if (accepted.size() == IN_FLIGHT) {
                    awaitAccepted(accepted); // as a client holding a few connections: under SAM3_MAX_IN_FLIGHT
                }
            }
            awaitAccepted(accepted);

            Instant lastFinished = Instant.EPOCH;
            for (String id : ids) {
                for (FacadeHarness facade : List.of(a, b)) {
                    String[] finished = new String[1];
                    awaitTrue(DONE_WITHIN, () -> {
                        HttpResponse<String> r = facade.get("/v1/jobs/" + id);
                        if (r.statusCode() != 200 || !"done".equals(json(r).get("status").asText())) {
                            return false;
                        }
                        finished[0] = json(r).get("finished_at").asText();
                        return true;
                    });
                    Instant at = Instant.parse(finished[0]);
                    lastFinished = at.isAfter(lastFinished) ? at : lastFinished;
                }
            }
            Map<String, Integer> forwards = topics.requestCounts();
            for (String id : ids) {
                assertEquals(1, forwards.get(id), "forwards of " + id);
            }

            Duration untilExpired = Duration.between(Instant.now(), lastFinished.plus(RETENTION));
            Thread.sleep(Math.max(0, untilExpired.toMillis()));
            for (FacadeHarness facade : List.of(a, b)) {
                awaitTrue(Duration.ofSeconds(60), () -> ids.stream()
                        .allMatch(id -> facade.get("/v1/jobs/" + id).statusCode() == 404));
            }
        } finally {
            a.close();
            b.close();
            worker.close();
        }
    }

    private static void awaitAccepted(List<CompletableFuture<HttpResponse<String>>> accepted) {
        for (CompletableFuture<HttpResponse<String>> f : accepted) {
            HttpResponse<String> r = f.join();
            assertTrue(r.statusCode() == 202 || r.statusCode() == 200, r.statusCode() + " " + r.body());
        }
        accepted.clear();
    }
}
