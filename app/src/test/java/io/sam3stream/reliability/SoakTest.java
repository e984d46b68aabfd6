package io.sam3stream.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sam3stream.kafka.KafkaTestStack;
import io.sam3stream.kafka.TestRequests;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Soak: the whole service (worker with the tiny engine, facade, in this JVM) under a steady request rate, checked
 * for growth of what a long-running process must not accumulate: live heap, threads, file descriptors and DJL's
 * native arrays. Six image sizes rotate through the four-entry image-feature cache, so cache evictions (and the
 * native memory they free) are part of every period; eight prompts stay in the text cache.
 *
 * <p>Load runs in equal periods; between two, the test waits for every answer and measures ({@link
 * ResourceSnapshot}). The first period warms up (JIT, caches, connection pools) and is the baseline. The run lasts
 * {@code -Dsoak.minutes} (default 0.5: a short run inside {@code mvn verify}); docs/RELIABILITY.md gives the long
 * command and its figures.
 */
@ExtendWith(KafkaTestStack.class)
class SoakTest {

    private static final double DEFAULT_MINUTES = 0.5;
    private static final int REQUESTS_PER_SECOND = 4;
    private static final int PERIODS = 6;

    /** Growth tolerated between the first and the last measurement (see docs/RELIABILITY.md for the figures). */
    private static final long HEAP_SLACK_BYTES = 16L << 20;
    private static final int THREAD_SLACK = 4;
    private static final long FILE_SLACK = 8;

    private static final String[] PROMPTS = {"cat", "a red car", "person wearing a hat", "tree", "dog",
        "building", "sky", "road"};
    private static final String[] MASK_FORMATS = {"png", "rle", "rle_compressed", "none"};

    @Test
    void aSteadyLoadLeavesHeapThreadsFilesAndNativeArraysWhereTheyWere() throws Exception {
        Duration total = Duration.ofMillis((long) (Double.parseDouble(
                System.getProperty("soak.minutes", Double.toString(DEFAULT_MINUTES))) * 60_000));
        Duration period = total.dividedBy(PERIODS);
        List<String> bodies = bodies();
        try (ServiceStack stack = ServiceStack.start("soak", Map.of())) {
            HttpCalls http = stack.facade().http();
            Map<Integer, Integer> statuses = new TreeMap<>();
            List<ResourceSnapshot> snapshots = new ArrayList<>();
            long sent = 0;
            long start = System.nanoTime();
            for (int p = 0; p < PERIODS; p++) {
                sent += runPeriod(http, bodies, period, sent, statuses);
                snapshots.add(ResourceSnapshot.take());
                System.out.printf("soak period %d/%d at %.0f s: %d requests so far, %s%n", p + 1, PERIODS,
                        (System.nanoTime() - start) / 1e9, sent, snapshots.get(p));
            }
            ResourceSnapshot baseline = snapshots.get(0);
            ResourceSnapshot last = snapshots.get(PERIODS - 1);
            String figures = String.format("soak: %d requests in %.0f s at %d/s, statuses %s; after warm-up %s;"
                    + " at the end %s", sent, (System.nanoTime() - start) / 1e9, REQUESTS_PER_SECOND, statuses,
                    baseline, last);
            System.out.println(figures);

            assertEquals(Map.of(200, (int) sent), statuses, figures);
            assertTrue(last.ndArrays() <= baseline.ndArrays(), "native arrays grew: " + figures);
            assertTrue(last.heapBytes() <= baseline.heapBytes() + HEAP_SLACK_BYTES, "heap grew: " + figures);
            assertTrue(last.threads() <= baseline.threads() + THREAD_SLACK, "threads grew: " + figures);
            assertTrue(last.fileHandles() <= baseline.fileHandles() + FILE_SLACK, "file descriptors grew: "
                    + figures);
        }
    }

    /**
     * One period of requests at the steady rate, each body in turn; returns once every one is answered, having
     * counted their statuses, and keeps none of the answers (a measurement must not count them as retained).
     */
    private static long runPeriod(HttpCalls http, List<String> bodies, Duration period, long firstIndex,
            Map<Integer, Integer> statuses) throws InterruptedException {
        long count = period.toMillis() * REQUESTS_PER_SECOND / 1000;
        List<CompletableFuture<HttpCalls.Answer>> calls = new ArrayList<>();
        ScheduledExecutorService clock = Executors.newSingleThreadScheduledExecutor();
        try {
            CompletableFuture<Void> done = new CompletableFuture<>();
            long[] next = {firstIndex};
            clock.scheduleAtFixedRate(() -> {
                synchronized (calls) {
                    if (calls.size() < count) {
                        calls.add(http.predictAsync(bodies.get((int) (next[0]++ % bodies.size()))));
                    } else {
                        done.complete(null);
                    }
                }
            }, 0, 1000 / REQUESTS_PER_SECOND, TimeUnit.MILLISECONDS);
            done.join();
        } finally {
            clock.shutdownNow();
            clock.awaitTermination(10, TimeUnit.SECONDS);
        }
        for (CompletableFuture<HttpCalls.Answer> call : calls) {
            statuses.merge(HttpCalls.await(call).status(), 1, Integer::sum);
        }
        return calls.size();
    }

    /**
     * Request bodies that differ in image (six sizes of the golden image), prompt and mask format; their number is
     * prime to the prompt and format counts so that every combination comes round.
     */
    private static List<String> bodies() {
        List<String> bodies = new ArrayList<>();
        int[][] sizes = {{200, 150}, {160, 120}, {240, 180}, {120, 90}, {300, 100}, {90, 200}};
        for (int i = 0; i < 5 * sizes.length; i++) {
            int[] size = sizes[i % sizes.length];
            ObjectNode body = PredictBodies.of(TestRequests.goldenImage(size[0], size[1]), PROMPTS[i % PROMPTS.length]);
            body.put("mask_format", MASK_FORMATS[i % MASK_FORMATS.length]);
            bodies.add(body.toString());
        }
        return bodies;
    }
}
