package io.sam3stream.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sam3stream.kafka.RunningWorker;
import io.sam3stream.schemas.registry.embedded.EmbeddedSchemaRegistry;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Broker restart under load: the broker runs in a child JVM (the dev stack's embedded broker), the registry, worker
 * (tiny engine) and facade in this one. While HTTP calls keep arriving at a steady rate, the broker is killed
 * (SIGKILL), left down for ten seconds and started again on the same data directory and ports. Every call ends
 * within its deadline with a result, 503 or 504; every call made before the broker went down, and every call the
 * facade accepted while it was down, is answered with its result once it is back; no facade thread is left
 * hanging. Runs for minutes: tagged, run by {@code .ci/run}.
 */
@Tag("reliability")
class BrokerRestartTest {

    private static final int MAX_MESSAGE_BYTES = 2 << 20;
    /** Calls start at this steady rate whatever happens to the earlier ones (an open system, like real callers). */
    private static final int CALLS_PER_SECOND = 4;
    private static final Duration REPLY_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration DEADLINE_SLACK = Duration.ofSeconds(3);
    private static final Duration BEFORE_OUTAGE = Duration.ofSeconds(8);
    private static final int BURST_BEFORE_OUTAGE = 16;
    /** Long enough for the burst to be produced, far too short for a worker to answer it all. */
    private static final Duration BURST_SETTLE = Duration.ofMillis(300);
    private static final Duration OUTAGE = Duration.ofSeconds(10);
    private static final Duration AFTER_OUTAGE = Duration.ofSeconds(20);
    private static final Duration START_TIMEOUT = Duration.ofSeconds(120);

    @TempDir
    Path dir;

    /** One HTTP call: when it started and ended (nanoTime) and how. */
    private record Call(long startNanos, long endNanos, HttpCalls.Answer answer) {}

    @Test
    void aBrokerDownForTenSecondsUnderLoadLeavesNoCallerHangingAndNoAcceptedRequestUnanswered() throws Exception {
        try (ChildBroker broker = new ChildBroker(dir.resolve("kafka"), MAX_MESSAGE_BYTES, dir.resolve("broker.log"))) {
            broker.start(START_TIMEOUT);
            try (EmbeddedSchemaRegistry registry = EmbeddedSchemaRegistry.start(
                    new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), broker.bootstrapServers())) {
                Map<String, String> env = environment(broker, registry);
                try (RunningWorker worker = RunningWorker.start(env);
                        InProcessFacade facade = InProcessFacade.start(env).awaitHealthy(START_TIMEOUT)) {
                    restartUnderLoad(broker, facade);
                }
            }
        }
    }

    private void restartUnderLoad(ChildBroker broker, InProcessFacade facade) throws Exception {
        HttpCalls http = facade.http();
        List<CompletableFuture<Call>> calls = new ArrayList<>(); // guarded by itself
        AtomicInteger callers = new AtomicInteger();
        ScheduledExecutorService clock = Executors.newSingleThreadScheduledExecutor();
        Runnable oneCall = () -> {
            long started = System.nanoTime();
            CompletableFuture<Call> call = http.predictAsync(PredictBodies.tagged("c-" + callers.incrementAndGet(),
                    "cat")).thenApply(answer -> new Call(started, System.nanoTime(), answer));
            synchronized (calls) {
                calls.add(call);
            }
        };
        clock.scheduleAtFixedRate(oneCall, 0, 1000 / CALLS_PER_SECOND, TimeUnit.MILLISECONDS);
        long start = System.nanoTime();
        Thread.sleep(BEFORE_OUTAGE.toMillis());
        // a burst just before the outage, so that requests are in Kafka and not yet answered when the broker dies
        for (int i = 0; i < BURST_BEFORE_OUTAGE; i++) {
            oneCall.run();
        }
        Thread.sleep(BURST_SETTLE.toMillis());
        long down = System.nanoTime();
        broker.kill();
        Thread.sleep(OUTAGE.toMillis());
        broker.start(START_TIMEOUT);
        long up = System.nanoTime();
        Thread.sleep(AFTER_OUTAGE.toMillis());
        clock.shutdown();
        assertTrue(clock.awaitTermination(10, TimeUnit.SECONDS));
        List<Call> answered = new ArrayList<>();
        for (CompletableFuture<Call> call : calls) {
            answered.add(call.get(REPLY_TIMEOUT.plus(DEADLINE_SLACK).toMillis(), TimeUnit.MILLISECONDS));
        }
        long end = System.nanoTime();
        String figures = figures(answered, start, down, up, end);
        System.out.println(figures);

        List<Call> waitingAtOutage = answered.stream().filter(c -> c.startNanos() < down && c.endNanos() > down)
                .toList();
        for (Call call : answered) {
            int status = call.answer().status();
            assertTrue(status == 200 || status == 503 || status == 504, call.answer() + "\n" + figures);
            assertTrue(call.answer().elapsed().compareTo(REPLY_TIMEOUT.plus(DEADLINE_SLACK)) <= 0,
                    "answered after its deadline: " + call.answer());
            if (call.startNanos() < down) {
                assertEquals(200, status, "a call made before the outage: " + call.answer() + "\n" + figures);
            }
            if (call.startNanos() < up && status != 503) {
                // accepted while the broker was down (the worker still counted as READY): held, then answered
                assertEquals(200, status, "a call accepted during the outage: " + call.answer() + "\n" + figures);
            }
        }
        assertTrue(!waitingAtOutage.isEmpty(), "the outage caught calls in flight: " + figures);
        assertTrue(answered.stream().anyMatch(c -> c.startNanos() > up && c.answer().status() == 200),
                "calls are served again after the restart: " + figures);
        assertEquals(List.of(), handlersStillRunning(), "facade threads still inside a request");
        assertEquals(0, (int) FacadeGauges.read(facade.server(), FacadeGauges.IN_FLIGHT));
        assertEquals(0, (int) FacadeGauges.read(facade.server(), FacadeGauges.PENDING_REPLIES));
        facade.awaitHealthy(Duration.ofSeconds(30));
        assertEquals(200, http.predict(PredictBodies.valid("cat").toString()).status(), "served at the end");
    }

    private static Map<String, String> environment(ChildBroker broker, EmbeddedSchemaRegistry registry) {
        Map<String, String> env = new HashMap<>();
        env.put("KAFKA_BOOTSTRAP_SERVERS", broker.bootstrapServers());
        env.put("SCHEMA_REGISTRY_URL", registry.url().toString());
        env.put("SAM3_MAX_MESSAGE_BYTES", Integer.toString(MAX_MESSAGE_BYTES));
        env.put("SAM3_TOPIC_PARTITIONS", "2");
        env.put("SAM3_WARMUP_RUNS", "1");
        env.put("SAM3_WORKER_ID", "restart-worker");
        env.put("SAM3_REPLY_TIMEOUT_MS", Long.toString(REPLY_TIMEOUT.toMillis()));
        env.put("SAM3_MAX_IN_FLIGHT", "512"); // every call of the outage may wait: none is refused with 429
        return env;
    }

    /** Threads whose stack is inside the facade's request handling (none should be, once every call ended). */
    private static List<String> handlersStillRunning() {
        List<String> stuck = new ArrayList<>();
        for (ThreadInfo info : ManagementFactory.getThreadMXBean().dumpAllThreads(false, false)) {
            boolean inHandler = Arrays.stream(info.getStackTrace())
                    .anyMatch(frame -> frame.getClassName().startsWith("io.sam3stream.facade.http."));
            if (inHandler) {
                stuck.add(info.getThreadName() + " " + info.getThreadState());
            }
        }
        return stuck;
    }

    private static String figures(List<Call> calls, long start, long down, long up, long end) {
        Map<String, Map<Integer, Integer>> byPhase = new TreeMap<>();
        long slowest = 0;
        long slowest503 = 0;
        for (Call c : calls) {
            String phase = c.startNanos() < down ? "1 before" : c.startNanos() < up ? "2 during" : "3 after";
            byPhase.computeIfAbsent(phase, p -> new TreeMap<>()).merge(c.answer().status(), 1, Integer::sum);
            slowest = Math.max(slowest, c.answer().elapsed().toMillis());
            if (c.answer().status() == 503) {
                slowest503 = Math.max(slowest503, c.answer().elapsed().toMillis());
            }
        }
        long waiting = calls.stream().filter(c -> c.startNanos() < down && c.endNanos() > down).count();
        return String.format("broker restart: %d calls at %d/s over %.0f s; broker down at %.1f s, serving"
                        + " again at %.1f s (%.1f s outage incl. restart); %d calls were waiting when it went down;"
                        + " statuses by the phase a call started in %s; slowest call %d ms, slowest 503 %d ms",
                calls.size(), CALLS_PER_SECOND, (end - start) / 1e9, (down - start) / 1e9, (up - start) / 1e9,
                (up - down) / 1e9, waiting, byPhase, slowest, slowest503);
    }
}
