package io.sam3stream.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;

/**
 * An open-loop HTTP load: {@code POST} requests sent at a fixed rate whatever happened to the earlier ones, each
 * latency measured from the moment the request was due rather than the moment it left (so that a stalled sender
 * does not hide the stall — no coordinated omission), every latency recorded.
 *
 * <p>Besides the latency, each {@code 200} answer's {@code timing_ms} tells how long the worker spent on the
 * request, from taking it up to its result being ready ({@code total}) and how long the request waited before
 * that ({@code queue}); the difference between the latency and {@code total} is what the facade and Kafka added.
 */
public final class LoadGenerator {

    /** Latencies are recorded in microseconds, up to this many (ten minutes), to three significant digits. */
    private static final long HIGHEST_MICROS = TimeUnit.MINUTES.toMicros(10);
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * What one load run measured, in microseconds; the histograms other than {@code latency} hold {@code 200}
     * answers only.
     *
     * @param latency  due time to answer, every request that was answered
     * @param worker   the worker's {@code timing_ms.total}
     * @param overhead latency minus the worker's {@code total}: HTTP, validation, Kafka both ways, the commit
     * @param queue    the worker's {@code timing_ms.queue}: from the request record's timestamp to the worker taking it
     * @param ok       answers with status 200
     * @param refused  other answers, by status, as "status × count" text
     * @param failed   requests that got no answer (connection errors, client timeouts)
     * @param seconds  wall time from the first request being due to the last answer
     */
    public record Result(Histogram latency, Histogram worker, Histogram overhead, Histogram queue, long ok,
            String refused, long failed, double seconds) {}

    private record Answer(long dueNanos, long answeredNanos, int status, String body) {}

    private final HttpClient http;
    private final URI target;
    private final byte[] body;
    private final Duration deadline;

    /**
     * @param target   the URL requests are posted to
     * @param body     the JSON body of every request
     * @param deadline client timeout of each request
     */
    public LoadGenerator(URI target, byte[] body, Duration deadline) {
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10)).build();
        this.target = target;
        this.body = body.clone();
        this.deadline = deadline;
    }

    /**
     * Sends {@code rate × seconds} requests, one every {@code 1/rate} seconds, and waits for all answers.
     *
     * @param rate    requests per second
     * @param seconds how long to send
     */
    public Result run(double rate, double seconds) throws InterruptedException {
        long count = Math.max(1, Math.round(rate * seconds));
        long intervalNanos = Math.round(1e9 / rate);
        List<CompletableFuture<Answer>> answers = new ArrayList<>((int) count);
        long start = System.nanoTime();
        for (long i = 0; i < count; i++) {
            long due = start + i * intervalNanos;
            for (long wait = due - System.nanoTime(); wait > 0; wait = due - System.nanoTime()) {
                LockSupport.parkNanos(wait);
            }
            if (Thread.interrupted()) {
                throw new InterruptedException("load interrupted after " + i + " requests");
            }
            answers.add(send(due));
        }
        return summarise(answers, start);
    }

    private CompletableFuture<Answer> send(long due) {
        HttpRequest request = HttpRequest.newBuilder(target).timeout(deadline)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
        return http.sendAsync(request, HttpResponse.BodyHandlers.ofString())
                .thenApply(r -> new Answer(due, System.nanoTime(), r.statusCode(), r.body()));
    }

    private static Result summarise(List<CompletableFuture<Answer>> answers, long start) {
        Histogram latency = histogram();
        Histogram worker = histogram();
        Histogram overhead = histogram();
        Histogram queue = histogram();
        StatusCounts refused = new StatusCounts();
        long ok = 0;
        long failed = 0;
        long last = start;
        for (CompletableFuture<Answer> future : answers) {
            Answer a;
            try {
                a = future.join();
            } catch (RuntimeException noAnswer) {
                failed++;
                continue;
            }
            last = Math.max(last, a.answeredNanos());
            long latencyMicros = (a.answeredNanos() - a.dueNanos()) / 1_000;
            latency.recordValue(latencyMicros);
            if (a.status() != 200) {
                refused.add(a.status());
                continue;
            }
            JsonNode timing = timing(a.body());
            long workerMicros = Math.round(timing.path("total").asDouble() * 1_000);
            worker.recordValue(workerMicros);
            overhead.recordValue(Math.max(0, latencyMicros - workerMicros));
            queue.recordValue(Math.round(timing.path("queue").asDouble() * 1_000));
            ok++;
        }
        return new Result(latency, worker, overhead, queue, ok, refused.toString(), failed, (last - start) / 1e9);
    }

    private static JsonNode timing(String body) {
        try {
            JsonNode timing = JSON.readTree(body).path("timing_ms");
            if (!timing.has("total")) {
                throw new IllegalStateException("a 200 answer without timing_ms.total: " + abbreviate(body));
            }
            return timing;
        } catch (IOException e) {
            throw new IllegalStateException("a 200 answer that is not JSON: " + abbreviate(body), e);
        }
    }

    private static String abbreviate(String text) {
        return text.length() <= 200 ? text : text.substring(0, 200) + "...";
    }

    private static Histogram histogram() {
        return new Histogram(HIGHEST_MICROS, 3);
    }

    /** Counts of answers by HTTP status, printed as {@code "503 × 4, 429 × 1"} ({@code "none"} when empty). */
    private static final class StatusCounts {
        private final TreeMap<Integer, Long> counts = new TreeMap<>();

        void add(int status) {
            counts.merge(status, 1L, Long::sum);
        }

        @Override
        public String toString() {
            if (counts.isEmpty()) {
                return "none";
            }
            StringBuilder text = new StringBuilder();
            counts.forEach((status, n) ->
                    text.append(text.isEmpty() ? "" : ", ").append(status).append(" × ").append(n));
            return text.toString();
        }
    }
}
