package io.sam3stream.facade;

import static io.sam3stream.facade.testing.FacadeHarness.awaitTrue;
import static io.sam3stream.facade.testing.FacadeHarness.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.sam3stream.facade.testing.Bodies;
import io.sam3stream.facade.testing.FacadeHarness;
import io.sam3stream.facade.testing.FakeWorker;
import io.sam3stream.facade.testing.JobTestTopics;
import io.sam3stream.facade.testing.TestStack;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code SAM3_JOB_RETENTION} deletes: a finished job is readable until its retention has passed since it
 * finished, then 404, and the store has published a tombstone for it (so it is gone from the compacted topic and
 * every instance's view, not merely hidden); a job whose result never comes expires from its submission.
 */
@ExtendWith(TestStack.class)
class JobRetentionTest {

    private static final Duration RETENTION = Duration.ofSeconds(2);

    @TempDir
    Path state;

    @Test
    void aJobIsDeletedOnceItsRetentionHasPassed() throws Exception {
        JobTestTopics topics = new JobTestTopics().create();
        try (FakeWorker worker = topics.worker("worker-r", TestStack.uniqueTopic("group"));
                FacadeHarness facade = FacadeHarness.start(topics.facadeEnv(state, RETENTION.toSeconds() + "s"))) {
            facade.awaitHealthy().awaitJobStore();
            assertEquals(202, facade.submitJob(Bodies.predict(40, 20, "cat").toString(), "short-lived").statusCode());
            assertEquals(202, facade.submitJob(Bodies.predict(40, 20, "silent").toString(), "never-done").statusCode());
            JsonNode done = JobsTest.awaitStatus(facade, "short-lived", "done");
            Instant finished = Instant.parse(done.get("finished_at").asText());
            assertEquals("pending", json(facade.get("/v1/jobs/never-done")).get("status").asText());

            awaitTrue(Duration.ofSeconds(10), () -> facade.get("/v1/jobs/short-lived").statusCode() == 404);
            assertTrue(!Instant.now().isBefore(finished.plus(RETENTION)), "expired before its retention");
            awaitTrue(Duration.ofSeconds(10), () -> facade.get("/v1/jobs/never-done").statusCode() == 404);
            // deleted for real: the index has written tombstones to the jobs topic
            awaitTrue(Duration.ofSeconds(10), () -> tombstoned(topics.jobs, "short-lived")
                    && tombstoned(topics.jobs, "never-done"));
            // and the id is free: resubmitting it is a new job
            assertEquals(202, facade.submitJob(Bodies.predict(40, 20, "dog").toString(), "short-lived").statusCode());
            assertEquals("dog", JobsTest.awaitStatus(facade, "short-lived", "done")
                    .at("/result/results/0/prompt").asText());
        }
    }

    private static boolean tombstoned(String topic, String id) {
        List<ConsumerRecord<String, byte[]>> records = JobTestTopics.readAll(topic);
        return records.stream().anyMatch(r -> id.equals(r.key()) && r.value() == null);
    }
}
