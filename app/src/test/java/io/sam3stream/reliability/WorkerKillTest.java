package io.sam3stream.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sam3stream.avro.ErrorCode;
import io.sam3stream.avro.SegmentationResult;
import io.sam3stream.avro.Status;
import io.sam3stream.kafka.ChildWorker;
import io.sam3stream.kafka.KafkaTestStack;
import io.sam3stream.kafka.TestClients;
import io.sam3stream.kafka.TestRequests;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Worker kills under traffic: 1,000 requests, a fifth of them HTTP calls through the facade and the rest produced
 * straight onto the request topic, while the worker (a child JVM running {@code sam3 worker} with the tiny
 * checkpoint) is killed with SIGKILL ten times at random moments (some while it starts, most while records flow)
 * and restarted after each. A {@code read_committed} reader then finds exactly one result per request; every HTTP
 * caller got its own result or a 504, within its deadline. Runs for minutes: tagged, run by {@code .ci/run}.
 */
@Tag("reliability")
@ExtendWith(KafkaTestStack.class)
class WorkerKillTest {

    private static final int REQUESTS = 1000;
    private static final int HTTP_SHARE = 5; // every fifth request is an HTTP call
    private static final int KILLS = 10;
    private static final int HTTP_CLIENTS = 6;
    private static final int DIRECT_WINDOW = 18;
    private static final Duration REPLY_TIMEOUT = Duration.ofSeconds(60);
    /** Past the deadline, an answer may take this long to reach the caller (the deadline timer, the response). */
    private static final Duration DEADLINE_SLACK = Duration.ofSeconds(3);
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(180);
    private static final Duration RUN_TIMEOUT = Duration.ofMinutes(20);

    @TempDir
    Path dir;

    /** An HTTP caller's last call: 503 and 429 (not accepted) are retried, so this is a 200 or a 504. */
    private record Call(String caller, HttpCalls.Answer answer, int refusedAttempts) {}

    @Test
    void tenKillsAtRandomMomentsLeaveExactlyOneResultPerRequestAndEveryCallerAnAnswer() throws Exception {
        long seed = Long.getLong("kills.seed", System.nanoTime());
        Random random = new Random(seed);
        Map<String, String> env = KafkaTestStack.workerEnvironment("kills");
        env.put("SAM3_TOPIC_PARTITIONS", "2");
        env.put("SAM3_REPLY_TIMEOUT_MS", Long.toString(REPLY_TIMEOUT.toMillis()));
        env.put("SAM3_MAX_IN_FLIGHT", "256");
        TestClients.createTopic(env.get("SAM3_REQUESTS_TOPIC"), 2);
        Path ready = dir.resolve("ready");
        Path log = dir.resolve("worker.log");
        List<String> direct = IntStream.range(0, REQUESTS).filter(i -> i % HTTP_SHARE != 0)
                .mapToObj(i -> "d-" + i).toList();
        List<String> callers = IntStream.range(0, REQUESTS).filter(i -> i % HTTP_SHARE == 0)
                .mapToObj(i -> "h-" + i).toList();

        ChildWorker worker = ChildWorker.start(env, ready, log);
        List<String> killLog = new ArrayList<>();
        ExecutorService traffic = Executors.newFixedThreadPool(HTTP_CLIENTS + 1);
        long start = System.nanoTime();
        try (InProcessFacade facade = awaitStack(worker, env);
                TopicTail results = new TopicTail(KafkaTestStack.bootstrapServers(), KafkaTestStack.MAX_MESSAGE_BYTES,
                        List.of(env.get("SAM3_RESULTS_TOPIC")))) {
            CompletableFuture<Void> produced = CompletableFuture.runAsync(() -> produce(env, direct, results),
                    traffic);
            List<CompletableFuture<List<Call>>> clients = httpClients(facade.http(), callers, traffic);

            for (int kill = 1; kill <= KILLS; kill++) {
                boolean whileStarting = kill > 1 && random.nextInt(5) == 0;
                if (whileStarting) {
                    Thread.sleep(300 + random.nextInt(3000)); // loading the checkpoint or warming up
                } else {
                    assertTrue(worker.awaitReady(READY_TIMEOUT), worker.logTail());
                    int seen = results.keyCount();
                    awaitTrue(() -> results.keyCount() > seen || produced.isDone(), READY_TIMEOUT, worker);
                    Thread.sleep(random.nextInt(5000)); // somewhere in the stream
                }
                worker.kill();
                killLog.add(String.format("kill %d at %.0f s (%s): %d direct results committed", kill,
                        (System.nanoTime() - start) / 1e9, whileStarting ? "starting" : "serving",
                        results.keyCount()));
                worker = ChildWorker.start(env, ready, log);
            }

            produced.get(RUN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            List<Call> calls = new ArrayList<>();
            for (CompletableFuture<List<Call>> client : clients) {
                calls.addAll(client.get(RUN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS));
            }
            List<ConsumerRecord<byte[], byte[]>> directResults = TestClients.readAllOnceComplete(
                    env.get("SAM3_RESULTS_TOPIC"), direct, READY_TIMEOUT, Duration.ofSeconds(2));
            List<ConsumerRecord<byte[], byte[]>> replies = TestClients.readAll(facade.config().replyTopic());
            String figures = figures(seed, killLog, calls, directResults, replies, start);
            System.out.println(figures);

            assertExactlyOnce(direct, directResults.stream()
                    .map(r -> new String(r.key(), StandardCharsets.UTF_8)).toList(), "direct requests", figures);
            List<SegmentationResult> replied = TestRequests.results(replies);
            assertExactlyOnce(callers, replied.stream().map(r -> r.getMetadata().get("caller")).toList(),
                    "HTTP calls", figures);
            TestRequests.results(directResults).forEach(r -> assertEquals(Status.OK, r.getStatus(), r.toString()));
            replied.forEach(r -> assertTrue(r.getStatus() == Status.OK
                    || r.getError().getCode() == ErrorCode.DEADLINE_EXCEEDED, r.toString()));
            for (Call call : calls) {
                assertCallAnswered(call, figures);
            }
            assertEquals(0, worker.terminate(Duration.ofSeconds(60)), "SIGTERM exits 0\n" + worker.logTail());
        } finally {
            traffic.shutdownNow();
            worker.close();
        }
    }

    /** Waits for the first worker, then starts the facade and waits until it sees that worker READY. */
    private static InProcessFacade awaitStack(ChildWorker worker, Map<String, String> env) throws Exception {
        assertTrue(worker.awaitReady(READY_TIMEOUT), worker.logTail());
        InProcessFacade facade = InProcessFacade.start(env);
        try {
            return facade.awaitHealthy(Duration.ofSeconds(60));
        } catch (AssertionError | InterruptedException e) {
            facade.close();
            throw e;
        }
    }

    /** Produces the direct requests, keeping at most {@link #DIRECT_WINDOW} of them unanswered. */
    private static void produce(Map<String, String> env, List<String> ids, TopicTail results) {
        byte[] image = TestRequests.goldenImage();
        try (TestClients.Requests requests = new TestClients.Requests(env.get("SAM3_REQUESTS_TOPIC"))) {
            for (int i = 0; i < ids.size(); i++) {
                while (i - results.keyCount() >= DIRECT_WINDOW) {
                    sleep(20);
                }
                requests.send(TestRequests.request(ids.get(i), image, "cat").build());
            }
        }
    }

    /** {@link #HTTP_CLIENTS} callers taking the next call in turn until all are made. */
    private static List<CompletableFuture<List<Call>>> httpClients(HttpCalls http, List<String> callers,
            ExecutorService threads) {
        AtomicInteger next = new AtomicInteger();
        List<CompletableFuture<List<Call>>> clients = new ArrayList<>();
        for (int c = 0; c < HTTP_CLIENTS; c++) {
            clients.add(CompletableFuture.supplyAsync(() -> {
                List<Call> calls = new ArrayList<>();
                for (int i; (i = next.getAndIncrement()) < callers.size(); ) {
                    calls.add(call(http, callers.get(i)));
                }
                return calls;
            }, threads));
        }
        return clients;
    }

    /** One caller: retries while the facade does not accept the call (no worker READY, or no place). */
    private static Call call(HttpCalls http, String caller) {
        String body = PredictBodies.tagged(caller, "cat");
        long giveUp = System.nanoTime() + RUN_TIMEOUT.toNanos();
        for (int refused = 0; ; refused++) {
            HttpCalls.Answer answer = http.predict(body);
            if ((answer.status() != 503 && answer.status() != 429) || System.nanoTime() > giveUp) {
                return new Call(caller, answer, refused);
            }
            sleep(250);
        }
    }

    private static void assertCallAnswered(Call call, String figures) {
        HttpCalls.Answer a = call.answer();
        assertTrue(a.status() == 200 || a.status() == 504, call.caller() + ": " + a + "\n" + figures);
        assertTrue(a.elapsed().compareTo(REPLY_TIMEOUT.plus(DEADLINE_SLACK)) <= 0,
                call.caller() + " answered after its deadline: " + a);
        if (a.status() == 200) {
            assertEquals(call.caller(), a.json().get("metadata").get("caller").asText(), "its own result");
        }
    }

    private static void assertExactlyOnce(List<String> expected, List<String> answered, String what,
            String figures) {
        Map<String, Long> counts = answered.stream()
                .collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
        List<String> lost = expected.stream().filter(id -> !counts.containsKey(id)).toList();
        List<String> repeated = counts.entrySet().stream().filter(e -> e.getValue() > 1).map(Map.Entry::getKey)
                .toList();
        assertEquals(List.of(), lost, what + " lost\n" + figures);
        assertEquals(List.of(), repeated, what + " answered twice\n" + figures);
        assertEquals(expected.size(), answered.size(), what + ": results\n" + figures);
    }

    private static String figures(long seed, List<String> killLog, List<Call> calls,
            List<ConsumerRecord<byte[], byte[]>> directResults, List<ConsumerRecord<byte[], byte[]>> replies,
            long start) {
        Map<Integer, Integer> statuses = new TreeMap<>();
        calls.forEach(c -> statuses.merge(c.answer().status(), 1, Integer::sum));
        long refusals = calls.stream().mapToLong(Call::refusedAttempts).sum();
        long slowest = calls.stream().mapToLong(c -> c.answer().elapsed().toMillis()).max().orElse(0);
        Map<String, Integer> replyStatuses = new HashMap<>();
        TestRequests.results(replies).forEach(r -> replyStatuses.merge(r.getStatus() == Status.OK ? "OK"
                : r.getError().getCode().name(), 1, Integer::sum));
        return String.format("worker kills: seed %d, %d requests (%d direct, %d HTTP) in %.0f s%n  %s%n"
                        + "  direct results read_committed: %d; HTTP replies: %d %s%n"
                        + "  HTTP outcomes %s, slowest %d ms, %d attempts refused (503, 429) and repeated",
                seed, REQUESTS, REQUESTS - calls.size(), calls.size(), (System.nanoTime() - start) / 1e9,
                String.join("\n  ", killLog), directResults.size(), replies.size(), replyStatuses, statuses, slowest,
                refusals);
    }

    private static void awaitTrue(java.util.function.BooleanSupplier condition, Duration timeout,
            ChildWorker worker) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "no progress\n" + worker.logTail());
            Thread.sleep(20);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
