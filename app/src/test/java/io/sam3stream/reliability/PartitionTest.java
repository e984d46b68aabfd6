package io.sam3stream.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sam3stream.avro.SegmentationResult;
import io.sam3stream.avro.Status;
import io.sam3stream.broker.EmbeddedKafkaBroker;
import io.sam3stream.broker.LoopbackPorts;
import io.sam3stream.kafka.ChildWorker;
import io.sam3stream.kafka.TestClients;
import io.sam3stream.kafka.TestRequests;
import io.sam3stream.schemas.registry.SchemaRegistryClient;
import io.sam3stream.schemas.registry.embedded.EmbeddedSchemaRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A network partition, not a crash: two workers in one consumer group, each in its own network namespace
 * ({@link NetworkNamespaces}), under a steady load of requests produced straight to Kafka and {@code POST /predict}
 * calls. One worker's link is cut while it holds a partition and records, then restored; the worker itself keeps
 * running, with its model and possibly inside a transaction.
 * <ul>
 *   <li>Cut for longer than the session timeout: the group gives the partition to the other worker, which answers
 *       what was waiting; the cut-off worker's late transaction cannot commit (fenced by the new generation, or
 *       timed out), and once its link is back it answers requests again.</li>
 *   <li>Cut for less: nothing moves, the cut-off worker's records are only late.</li>
 * </ul>
 * Either way a {@code read_committed} reader finds exactly one result per request, every HTTP caller gets its result
 * or a timely 503/504, and the facade holds nothing in flight at the end. Needs root and iproute2; elsewhere it is
 * skipped and says why. Runs for minutes: tagged, run by {@code .ci/run}.
 */
@Tag("reliability")
class PartitionTest {

    private static final int MAX_MESSAGE_BYTES = 2 << 20;
    /** The workers' session timeout: a fast worker gets Kafka's default (ProcessingTimeouts.MIN_SESSION). */
    private static final Duration SESSION = Duration.ofSeconds(45);
    private static final Duration REPLY_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration DEADLINE_SLACK = Duration.ofSeconds(3);
    private static final Duration START_TIMEOUT = Duration.ofSeconds(180);
    private static final Duration BEFORE_CUT = Duration.ofSeconds(12);
    private static final Duration AFTER_RESTORE = Duration.ofSeconds(40);
    private static final int DIRECT_PER_SECOND = 4;
    private static final int CALLS_PER_SECOND = 2;
    private static final AtomicInteger DEPLOYMENTS = new AtomicInteger();

    @TempDir
    Path dir;

    /** Decodes the results: this test's registry, not the shared test stack's. */
    private SchemaRegistryClient registryClient;

    /** An HTTP call and how it ended. */
    private record Call(String caller, HttpCalls.Answer answer) {}

    @Test
    void aCutLongerThanTheSessionMovesThePartitionAndNothingIsAnsweredTwice() throws Exception {
        partition(SESSION.plusSeconds(20), true);
    }

    @Test
    void aCutShorterThanTheSessionMovesNothingAndOnlyDelays() throws Exception {
        partition(Duration.ofSeconds(15), false);
    }

    private void partition(Duration cut, boolean beyondSession) throws Exception {
        NetworkNamespaces network;
        try {
            network = NetworkNamespaces.create(2);
        } catch (IOException e) {
            Assumptions.abort("skipped: network namespaces cannot be set up here (needs root and iproute2): "
                    + e.getMessage());
            return;
        }
        int[] ports = {LoopbackPorts.free(), LoopbackPorts.free()};
        try (network;
                EmbeddedKafkaBroker broker = new EmbeddedKafkaBroker(NetworkNamespaces.HOST_ADDRESS,
                        dir.resolve("kafka"), ports[0], ports[1], MAX_MESSAGE_BYTES);
                EmbeddedSchemaRegistry registry = EmbeddedSchemaRegistry.start(
                        new InetSocketAddress(NetworkNamespaces.HOST_ADDRESS, 0))) {
            broker.start();
            Map<String, String> env = environment(broker.bootstrapServers(), registry.url().toString());
            ChildWorker[] workers = new ChildWorker[3];
            try {
                for (int i = 1; i <= 2; i++) {
                    workers[i] = startWorker(network, env, i);
                    assertTrue(workers[i].awaitReady(START_TIMEOUT), workers[i].logTail());
                }
                try (InProcessFacade facade = InProcessFacade.start(env).awaitHealthy(START_TIMEOUT);
                        TopicTail results = new TopicTail(broker.bootstrapServers(), MAX_MESSAGE_BYTES,
                                List.of(env.get("SAM3_RESULTS_TOPIC")))) {
                    registryClient = SchemaRegistryClient.builder(registry.url()).build();
                    underLoad(network, workers, env, facade, results, cut, beyondSession);
                }
            } finally {
                for (ChildWorker worker : workers) {
                    if (worker != null) {
                        worker.close();
                    }
                }
            }
        }
    }

    private void underLoad(NetworkNamespaces network, ChildWorker[] workers, Map<String, String> env,
            InProcessFacade facade, TopicTail results, Duration cut, boolean beyondSession) throws Exception {
        List<String> direct = new CopyOnWriteArrayList<>();
        Map<String, Long> producedAt = new ConcurrentHashMap<>();
        List<CompletableFuture<Call>> calls = new CopyOnWriteArrayList<>();
        AtomicInteger ids = new AtomicInteger();
        HttpCalls http = facade.http();
        byte[] image = TestRequests.goldenImage();
        ScheduledExecutorService load = Executors.newScheduledThreadPool(2);
        long start = System.currentTimeMillis();
        long cutAt;
        long restoredAt;
        try (TestClients.Requests requests = new TestClients.Requests(env.get("KAFKA_BOOTSTRAP_SERVERS"),
                registryClient, MAX_MESSAGE_BYTES, env.get("SAM3_REQUESTS_TOPIC"))) {
            load.scheduleAtFixedRate(() -> {
                String id = "d-" + ids.incrementAndGet();
                producedAt.put(id, System.currentTimeMillis());
                requests.send(TestRequests.request(id, image, "cat").build());
                direct.add(id);
            }, 0, 1000 / DIRECT_PER_SECOND, TimeUnit.MILLISECONDS);
            load.scheduleAtFixedRate(() -> {
                String caller = "h-" + ids.incrementAndGet();
                calls.add(http.predictAsync(PredictBodies.tagged(caller, "cat"))
                        .thenApply(answer -> new Call(caller, answer)));
            }, 0, 1000 / CALLS_PER_SECOND, TimeUnit.MILLISECONDS);

            Thread.sleep(BEFORE_CUT.toMillis());
            cutAt = System.currentTimeMillis();
            network.cut(1);
            Thread.sleep(cut.toMillis());
            network.restore(1);
            restoredAt = System.currentTimeMillis();
            Thread.sleep(AFTER_RESTORE.toMillis());
            load.shutdown();
            assertTrue(load.awaitTermination(30, TimeUnit.SECONDS));
        }
        List<Call> answered = new ArrayList<>();
        for (CompletableFuture<Call> call : calls) {
            answered.add(call.get(REPLY_TIMEOUT.plus(DEADLINE_SLACK).toMillis(), TimeUnit.MILLISECONDS));
        }
        awaitResults(results, direct, workers);
        Thread.sleep(3000); // a duplicate committed late would show up by now

        boolean firstRestarted = false;
        if (!workers[1].isAlive()) {
            // it gave up on a transaction it could not commit and exited 1, as a supervisor would see it
            firstRestarted = true;
            workers[1] = startWorker(network, env, 1);
            assertTrue(workers[1].awaitReady(START_TIMEOUT), workers[1].logTail());
        }
        String figures = figures(direct, producedAt, results, answered, start, cutAt, restoredAt, cut,
                firstRestarted, Files.readString(dir.resolve("worker-1.log")));
        System.out.println(figures);

        for (String id : direct) {
            List<ConsumerRecord<byte[], byte[]>> found = results.records(id);
            assertEquals(1, found.size(), "committed results of " + id + "\n" + figures);
            SegmentationResult result = TestRequests.results(found, registryClient).get(0);
            assertEquals(Status.OK, result.getStatus(), result.toString());
        }
        for (Call call : answered) {
            int status = call.answer().status();
            assertTrue(status == 200 || status == 503 || status == 504, call.answer() + "\n" + figures);
            assertTrue(call.answer().elapsed().compareTo(REPLY_TIMEOUT.plus(DEADLINE_SLACK)) <= 0,
                    "answered after its deadline: " + call.answer());
            if (!beyondSession) {
                assertEquals(200, status, "nothing moved, so every call is answered: " + call.answer());
            }
        }
        if (beyondSession) {
            // the other worker took the partition over: what waited on the cut-off worker was answered during the cut
            long takenOver = cutAt + SESSION.toMillis() + Duration.ofSeconds(10).toMillis();
            for (String id : direct) {
                if (producedAt.get(id) < takenOver - Duration.ofSeconds(10).toMillis()) {
                    assertTrue(results.records(id).get(0).timestamp() < restoredAt,
                            id + " was answered only after the link came back\n" + figures);
                }
            }
        }
        assertTrue(answeredAfter(results, direct, "1", restoredAt) || firstRestarted && workers[1].isAlive(),
                "the cut-off worker serves again after the restore\n" + figures);
        assertEquals(0, (int) FacadeGauges.read(facade.server(), FacadeGauges.IN_FLIGHT));
        assertEquals(0, (int) FacadeGauges.read(facade.server(), FacadeGauges.PENDING_REPLIES));
        for (int i = 1; i <= 2; i++) {
            assertEquals(0, workers[i].terminate(Duration.ofSeconds(60)), "SIGTERM exits 0\n" + workers[i].logTail());
        }
    }

    private boolean answeredAfter(TopicTail results, List<String> direct, String worker, long after) {
        return direct.stream().flatMap(id -> results.records(id).stream())
                .filter(r -> r.timestamp() > after)
                .anyMatch(r -> workerOf(r).endsWith("-" + worker));
    }

    private String workerOf(ConsumerRecord<byte[], byte[]> result) {
        return TestRequests.results(List.of(result), registryClient).get(0).getWorkerId();
    }

    private static void awaitResults(TopicTail results, List<String> direct, ChildWorker[] workers)
            throws InterruptedException {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (direct.stream().anyMatch(id -> results.records(id).isEmpty())) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("requests without a result: " + direct.stream()
                        .filter(id -> results.records(id).isEmpty()).toList() + "\n" + workers[1].logTail()
                        + "\n" + workers[2].logTail());
            }
            Thread.sleep(100);
        }
    }

    private ChildWorker startWorker(NetworkNamespaces network, Map<String, String> env, int i) throws IOException {
        Map<String, String> own = new HashMap<>(env);
        own.put("SAM3_WORKER_ID", env.get("SAM3_CONSUMER_GROUP") + "-" + i);
        return ChildWorker.start(network.launcher(i), own, dir.resolve("ready-" + i),
                dir.resolve("worker-" + i + ".log"));
    }

    private static Map<String, String> environment(String bootstrap, String registry) {
        String name = "partition-" + DEPLOYMENTS.incrementAndGet();
        Map<String, String> env = new HashMap<>();
        env.put("KAFKA_BOOTSTRAP_SERVERS", bootstrap);
        env.put("SCHEMA_REGISTRY_URL", registry);
        env.put("SAM3_PRECISION", "fp32");
        env.put("SAM3_CONSUMER_GROUP", name);
        env.put("SAM3_REQUESTS_TOPIC", name + ".requests");
        env.put("SAM3_RESULTS_TOPIC", name + ".results");
        env.put("SAM3_DLQ_TOPIC", name + ".requests.dlq");
        env.put("SAM3_WORKERS_TOPIC", name + ".workers");
        env.put("SAM3_TOPIC_PARTITIONS", "2");
        env.put("SAM3_MAX_MESSAGE_BYTES", Integer.toString(MAX_MESSAGE_BYTES));
        env.put("SAM3_WARMUP_RUNS", "1");
        env.put("SAM3_REPLY_TIMEOUT_MS", Long.toString(REPLY_TIMEOUT.toMillis()));
        env.put("SAM3_MAX_IN_FLIGHT", "256");
        return env;
    }

    private String figures(List<String> direct, Map<String, Long> producedAt, TopicTail results,
            List<Call> calls, long start, long cutAt, long restoredAt, Duration cut, boolean restarted,
            String cutOffLog) {
        long maxLatency = 0;
        Map<String, Integer> byWorker = new TreeMap<>();
        for (String id : direct) {
            ConsumerRecord<byte[], byte[]> r = results.records(id).get(0);
            maxLatency = Math.max(maxLatency, r.timestamp() - producedAt.get(id));
            byWorker.merge(workerOf(r), 1, Integer::sum);
        }
        Map<Integer, Integer> statuses = new TreeMap<>();
        calls.forEach(c -> statuses.merge(c.answer().status(), 1, Integer::sum));
        String commitLines = String.join("\n    ", cutOffLog.lines()
                .filter(l -> (l.contains("WARN") || l.contains("ERROR") || l.contains("READY"))
                        && !l.contains("Connection to node") && !l.contains("NetworkClient"))
                .map(l -> l.length() > 300 ? l.substring(0, 300) + " ..." : l)
                .toList());
        return String.format("partition test: cut %d s (session %d s) at %.1f s, restored at %.1f s; %d direct"
                        + " requests, results by worker %s, slowest %.1f s; %d HTTP calls, statuses %s; cut-off worker"
                        + " %s; its log on transactions:%n    %s",
                cut.toSeconds(), SESSION.toSeconds(), (cutAt - start) / 1e3, (restoredAt - start) / 1e3, direct.size(),
                byWorker, maxLatency / 1e3, calls.size(), statuses,
                restarted ? "exited and was restarted" : "kept running", commitLines);
    }
}
