package io.sam3stream.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sam3stream.avro.SegmentationResult;
import io.sam3stream.avro.Status;
import io.sam3stream.avro.WorkerState;
import io.sam3stream.avro.WorkerStatus;
import io.sam3stream.schemas.serde.SpecificAvroDeserializer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exactly once under SIGKILL: a worker in a child JVM is killed at random moments (while starting, while records
 * flow) and restarted each time; a {@code read_committed} reader then sees one result per request, no more, no less.
 * Child JVMs and kills take most of a minute: it runs with the reliability group.
 */
@Tag("reliability")
@ExtendWith(KafkaTestStack.class)
class ExactlyOnceUnderKillTest {

    private static final int REQUESTS = 200;
    private static final int KILLS = 3;
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(120);
    private static final Duration RESULTS_TIMEOUT = Duration.ofSeconds(180);

    @TempDir
    Path dir;

    @Test
    void aWorkerKilledAtRandomMomentsLeavesExactlyOneResultPerRequest() throws Exception {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        Map<String, String> env = KafkaTestStack.workerEnvironment("kill");
        env.put("SAM3_TOPIC_PARTITIONS", "2");
        String resultsTopic = env.get("SAM3_RESULTS_TOPIC");
        Path ready = dir.resolve("ready");
        Path log = dir.resolve("worker.log");
        List<String> ids = IntStream.range(0, REQUESTS).mapToObj(i -> "k-" + i).toList();
        TestClients.createTopic(env.get("SAM3_REQUESTS_TOPIC"), 2);
        try (TestClients.Requests requests = new TestClients.Requests(env.get("SAM3_REQUESTS_TOPIC"))) {
            byte[] image = TestRequests.goldenImage();
            ids.forEach(id -> requests.send(TestRequests.request(id, image, "cat").build()));
        }

        List<Integer> answeredAtKill = new ArrayList<>();
        for (int kill = 0; kill < KILLS; kill++) {
            try (ChildWorker worker = ChildWorker.start(env, ready, log)) {
                if (kill == 0) {
                    Thread.sleep(500 + random.nextInt(2500)); // loading the engine, or warming up
                } else {
                    assertTrue(worker.awaitReady(READY_TIMEOUT), worker.logTail());
                    awaitProgress(resultsTopic, worker);
                    Thread.sleep(random.nextInt(1000)); // in the middle of the stream
                }
                worker.kill();
            }
            answeredAtKill.add(TestClients.readAll(resultsTopic).size());
        }

        try (ChildWorker worker = ChildWorker.start(env, ready, log)) {
            List<ConsumerRecord<byte[], byte[]>> read =
                    TestClients.readAllOnceComplete(resultsTopic, ids, RESULTS_TIMEOUT, Duration.ofSeconds(1));
            String context = "seed " + seed + ", results committed at each kill " + answeredAtKill;
            System.out.println("exactly-once run: " + context);
            assertEquals(ids, read.stream().map(r -> new String(r.key(), StandardCharsets.UTF_8))
                    .sorted((a, b) -> Integer.compare(index(a), index(b))).toList(),
                    "one result per request, " + context + "\n" + worker.logTail());
            List<SegmentationResult> results = TestRequests.results(read);
            results.forEach(r -> assertEquals(Status.OK, r.getStatus(), r.toString()));
            assertTrue(answeredAtKill.get(KILLS - 1) < REQUESTS, "the last kill hit a flowing stream, " + context);

            assertEquals(0, worker.terminate(Duration.ofSeconds(60)), "SIGTERM exits 0\n" + worker.logTail());
        }
        assertEquals(WorkerState.STOPPED, lastState(env.get("SAM3_WORKERS_TOPIC"), env.get("SAM3_WORKER_ID")));
        assertTrue(!ready.toFile().exists(), "the ready file goes with the worker");
    }

    /** Waits until the worker commits another result. */
    private static void awaitProgress(String resultsTopic, ChildWorker worker) throws InterruptedException {
        try (TestClients.Progress progress = new TestClients.Progress(resultsTopic)) {
            long end = progress.stableEnd();
            long deadline = System.nanoTime() + RESULTS_TIMEOUT.toNanos();
            while (progress.stableEnd() <= end) {
                assertTrue(System.nanoTime() < deadline, "no progress\n" + worker.logTail());
                Thread.sleep(50);
            }
        }
    }

    private static int index(String id) {
        return Integer.parseInt(id.substring(2));
    }

    private static WorkerState lastState(String topic, String workerId) {
        SpecificAvroDeserializer<WorkerStatus> statuses =
                new SpecificAvroDeserializer<>(KafkaTestStack.registryClient(), WorkerStatus.class);
        List<WorkerStatus> all = TestClients.readAll(topic).stream()
                .map(r -> statuses.deserialize(topic, r.value()))
                .filter(s -> s.getWorkerId().equals(workerId)).toList();
        return all.get(all.size() - 1).getState();
    }
}
