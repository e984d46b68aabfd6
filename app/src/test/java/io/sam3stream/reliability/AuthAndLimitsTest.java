package io.sam3stream.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sam3stream.kafka.KafkaTestStack;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Authentication and the facade's limits under load, on the whole service (tiny engine): with API keys set, only
 * {@code /health} is open; with 200 clients at once, in-flight places and body sizes stay bounded, the surplus is
 * refused (429 with Retry-After, 413) rather than queued, nobody hangs and heap stays bounded.
 */
@ExtendWith(KafkaTestStack.class)
class AuthAndLimitsTest {

    private static final String KEY = "reliability-key-1";
    private static final String SECOND_KEY = "reliability-key-2";
    private static final int MAX_IN_FLIGHT = 16;
    private static final int CLIENTS = 200;
    private static final long DECLARED_OVERSIZE = 100_000_000L;
    private static final long CHUNKED_OVERSIZE = 20_000_000L;
    private static final Duration BURST_TIMEOUT = Duration.ofSeconds(120);
    private static final Duration LIVE_HEAP_SAMPLING = Duration.ofMillis(100);

    private static ServiceStack stack;

    @BeforeAll
    static void start() throws Exception {
        stack = ServiceStack.start("limits", Map.of(
                "SAM3_API_KEYS", KEY + "," + SECOND_KEY,
                "SAM3_MAX_IN_FLIGHT", Integer.toString(MAX_IN_FLIGHT)));
    }

    @AfterAll
    static void stop() {
        if (stack != null) {
            stack.close();
        }
    }

    @Test
    void withApiKeysSetEveryRouteButHealthAnswers401WithoutAnAcceptedToken() {
        HttpCalls anonymous = stack.facade().http(null);
        HttpCalls wrong = stack.facade().http("reliability-key-3");
        for (String path : List.of("/info", "/v1/models", "/metrics", "/openapi.json")) {
            assertUnauthorized(anonymous.get(path));
            assertUnauthorized(wrong.get(path));
            assertEquals(200, stack.facade().http(SECOND_KEY).get(path).status(), path);
        }
        String body = PredictBodies.valid("cat").toString();
        assertUnauthorized(anonymous.predict(body));
        assertUnauthorized(wrong.predict(body));
        assertUnauthorized(anonymous.send(anonymous.request("/predict").header("Authorization", "Basic "
                + java.util.Base64.getEncoder().encodeToString((KEY + ":x").getBytes())).POST(
                        HttpRequest.BodyPublishers.ofString(body)).build()));
        assertUnauthorized(anonymous.send(anonymous.request("/predict").header("Authorization", "Bearer " + KEY
                + "x").POST(HttpRequest.BodyPublishers.ofString(body)).build()));
        assertEquals(200, stack.facade().http(KEY).predict(body).status());

        HttpCalls.Answer health = anonymous.get("/health");
        assertEquals(200, health.status(), health.toString());
        assertEquals("ok", health.json().get("status").asText());
    }

    @Test
    void anUnauthenticatedHugeBodyIsRefusedWithoutBeingRead() throws Exception {
        RawHttp.Reply reply = RawHttp.upload(stack.facade().server().port(), null, DECLARED_OVERSIZE, false);

        assertEquals(401, reply.status(), reply.statusLine());
    }

    /**
     * One kind of client in the burst, and the statuses it may get. The oversized uploads go first; the others
     * wait until every upload is under way, then {@link #HEAD_START} more: valid calls hold their places for a whole
     * forward, so uploads arriving after them would all meet 429 and never reach the body limit.
     */
    private record Kind(String name, int count, List<Integer> allowed, boolean first, Supplier<Integer> call) {}

    private static final Duration HEAD_START = Duration.ofMillis(50);

    @Test
    void twoHundredConcurrentClientsMeetBoundedPlacesAndBodiesWithoutHangs() throws Exception {
        int port = stack.facade().server().port();
        HttpCalls http = stack.facade().http();
        HttpCalls anonymous = stack.facade().http(null);
        String valid = PredictBodies.valid("cat").toString();
        List<Kind> kinds = List.of(
                new Kind("valid", 120, List.of(200, 429), false, () -> checkedStatus(http.predict(valid))),
                new Kind("declared 100 MB", 40, List.of(413, 429), true,
                        () -> upload(port, KEY, DECLARED_OVERSIZE, false)),
                new Kind("chunked 20 MB", 20, List.of(413, 429), true,
                        () -> upload(port, KEY, CHUNKED_OVERSIZE, true)),
                new Kind("no token", 20, List.of(401), false, () -> anonymous.predict(valid).status()));
        assertEquals(CLIENTS, kinds.stream().mapToInt(Kind::count).sum());

        long heapBefore = ResourceSnapshot.liveHeapAfterCollection();
        LiveHeapPeak peak = new LiveHeapPeak();
        AtomicLong mostInFlight = new AtomicLong();
        AtomicBoolean sampling = new AtomicBoolean(true);
        Thread gauges = new Thread(() -> {
            while (sampling.get()) {
                mostInFlight.accumulateAndGet((long) FacadeGauges.read(stack.facade().server(),
                        FacadeGauges.IN_FLIGHT), Math::max);
                mostInFlight.accumulateAndGet((long) FacadeGauges.read(stack.facade().server(),
                        FacadeGauges.PENDING_REPLIES), Math::max);
                sleep(5);
            }
        }, "gauge-sampler");
        gauges.start();

        Map<String, Map<Integer, Integer>> outcomes = new TreeMap<>();
        ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
        CountDownLatch go = new CountDownLatch(1);
        CountDownLatch uploadsUnderway = new CountDownLatch(kinds.stream().filter(Kind::first)
                .mapToInt(Kind::count).sum());
        List<CompletableFuture<Integer>> calls = new ArrayList<>();
        List<String> kindOfCall = new ArrayList<>();
        long start = System.nanoTime();
        try {
            for (Kind kind : kinds) {
                for (int i = 0; i < kind.count(); i++) {
                    kindOfCall.add(kind.name());
                    calls.add(CompletableFuture.supplyAsync(() -> {
                        awaitLatch(go);
                        if (kind.first()) {
                            uploadsUnderway.countDown();
                        } else {
                            awaitLatch(uploadsUnderway);
                            sleep(HEAD_START.toMillis());
                        }
                        return kind.call().get();
                    }, clients));
                }
            }
            go.countDown();
            CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new))
                    .get(BURST_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } finally {
            sampling.set(false);
            gauges.join();
            peak.close();
            clients.shutdownNow();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        for (int i = 0; i < calls.size(); i++) {
            outcomes.computeIfAbsent(kindOfCall.get(i), k -> new TreeMap<>()).merge(calls.get(i).get(), 1,
                    Integer::sum);
        }
        long heapAfter = ResourceSnapshot.heapAfterFullCollection();
        String figures = String.format("%d clients in %.1f s: %s; most places held %d (limit %d); live heap peak %.0f"
                + " MiB over the %.0f MiB before (bodies sent: %.0f MiB), %.0f MiB after", CLIENTS, seconds, outcomes,
                mostInFlight.get(), MAX_IN_FLIGHT, (peak.max() - heapBefore) / 1048576.0, heapBefore / 1048576.0,
                (40 * DECLARED_OVERSIZE + 20 * CHUNKED_OVERSIZE) / 1048576.0, heapAfter / 1048576.0);
        System.out.println("limits: " + figures);

        for (Kind kind : kinds) {
            assertTrue(kind.allowed().containsAll(outcomes.get(kind.name()).keySet()), kind.name() + ": " + figures);
        }
        assertTrue(outcomes.get("valid").containsKey(200), "some valid requests are served: " + figures);
        assertTrue(outcomes.get("valid").containsKey(429), "the surplus is refused, not queued: " + figures);
        assertTrue(outcomes.get("declared 100 MB").containsKey(413), figures);
        assertTrue(outcomes.get("chunked 20 MB").containsKey(413), figures);
        assertTrue(mostInFlight.get() <= MAX_IN_FLIGHT, figures);
        // an admitted body is at most the body limit; twice that per place bounds the reading buffers, with room for
        // 200 calls' own objects and Jetty's buffer pool (the bodies offered, held in full, would take 4 GiB)
        long bound = 2L * MAX_IN_FLIGHT * stack.facade().config().maxBodyBytes() + (64L << 20);
        assertTrue(peak.max() - heapBefore < bound, "live heap over " + bound / 1048576 + " MiB: " + figures);
        assertTrue(heapAfter - heapBefore < bound, "heap retained after the burst: " + figures);
        assertEquals(0, (int) FacadeGauges.read(stack.facade().server(), FacadeGauges.IN_FLIGHT), figures);
        assertEquals(200, http.predict(valid).status(), "served after the burst");
    }

    /**
     * The status of a {@code POST /predict}, whose client shares its connections with 119 others: a refusal must
     * reach it as a response, never as a reset connection (see {@link HttpCalls#await}). A 429 must say when to come
     * back.
     */
    private static int checkedStatus(HttpCalls.Answer answer) {
        if (answer.status() == 429) {
            long retryAfter = Long.parseLong(answer.header("Retry-After").orElseThrow(
                    () -> new AssertionError("429 without Retry-After")));
            assertTrue(retryAfter >= 1, answer.toString());
        }
        return answer.status();
    }

    private static int upload(int port, String token, long length, boolean chunked) {
        try {
            return RawHttp.upload(port, token, length, chunked).status();
        } catch (Exception e) {
            throw new AssertionError("upload failed", e);
        }
    }

    private static void assertUnauthorized(HttpCalls.Answer answer) {
        assertEquals(401, answer.status(), answer.toString());
        assertEquals("Bearer", answer.header("WWW-Authenticate").orElse(""), answer.toString());
    }

    private static void awaitLatch(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The most live heap seen: until closed, a full collection every {@link #LIVE_HEAP_SAMPLING} and the heap it found
     * live ({@link ResourceSnapshot#liveHeapAfterCollection}). Garbage does not count (how much of it piles up between
     * collections depends on the collector's sizing, not on the service), nor do the allocation buffers the 200
     * client threads take right after a collection; bodies held while they are read do.
     */
    private static final class LiveHeapPeak implements AutoCloseable {
        private final AtomicLong max = new AtomicLong();
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final Thread thread = new Thread(() -> {
            while (running.get()) {
                max.accumulateAndGet(ResourceSnapshot.liveHeapAfterCollection(), Math::max);
                sleep(LIVE_HEAP_SAMPLING.toMillis());
            }
        }, "live-heap-peak");

        LiveHeapPeak() {
            thread.start();
        }

        long max() {
            return max.get();
        }

        @Override
        public void close() throws InterruptedException {
            running.set(false);
            thread.join();
        }
    }
}
