package io.sam3stream.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class LoadGeneratorTest {

    /** Every third request is refused with 429; the others take 30 ms, of which the "worker" reports 10. */
    private HttpServer server;
    private final AtomicInteger received = new AtomicInteger();

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(Executors.newCachedThreadPool());
        server.createContext("/predict", exchange -> {
            exchange.getRequestBody().readAllBytes();
            int n = received.incrementAndGet();
            int status = n % 3 == 0 ? 429 : 200;
            if (status == 200) {
                sleep(30);
            }
            byte[] body = (status == 200 ? "{\"timing_ms\": {\"queue\": 4.0, \"total\": 10.0}}"
                    : "{\"detail\": \"busy\"}").getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    @Test
    void sendsAtTheRateAndSplitsEachLatencyIntoWorkerTimeAndOverhead() throws Exception {
        URI target = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/predict");
        LoadGenerator generator = new LoadGenerator(target, "{}".getBytes(StandardCharsets.UTF_8),
                Duration.ofSeconds(10));

        LoadGenerator.Result r = generator.run(30, 1.0);

        assertEquals(30, received.get(), "one request per 1/rate seconds");
        assertEquals(20, r.ok());
        assertEquals("429 × 10", r.refused());
        assertEquals(0, r.failed());
        assertEquals(30, r.latency().getTotalCount(), "every answered request has a latency");
        assertEquals(20, r.overhead().getTotalCount(), "overhead only where the worker reported its time");
        assertEquals(10.0, r.worker().getValueAtPercentile(50) / 1e3, 0.01);
        assertEquals(4.0, r.queue().getValueAtPercentile(50) / 1e3, 0.01);
        double overheadMs = r.overhead().getValueAtPercentile(50) / 1e3;
        assertTrue(overheadMs >= 20 - 0.5, "30 ms answers of which 10 ms are the worker's: " + overheadMs);
        assertTrue(r.seconds() >= 29.0 / 30, "the last request is due after (n - 1)/rate seconds: " + r.seconds());
    }

    @Test
    void aRequestWithoutAnAnswerCountsAsFailedNotAsALatency() throws Exception {
        server.stop(0);
        URI nobody = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/predict");
        LoadGenerator.Result r = new LoadGenerator(nobody, new byte[0], Duration.ofSeconds(2)).run(10, 0.5);

        assertEquals(5, r.failed());
        assertEquals(0, r.latency().getTotalCount());
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
