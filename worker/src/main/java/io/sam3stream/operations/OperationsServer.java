package io.sam3stream.operations;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * A worker's operations endpoint: {@code GET /metrics} (Prometheus text), {@code GET /health/live} and
 * {@code GET /health/ready} (200 or 503 with a short JSON reason). It runs on the JDK's own HTTP server, so the
 * worker image carries no web server library, and on one thread of its own, so a scrape never competes with the
 * pipeline's threads for more than a core's share.
 */
public final class OperationsServer implements AutoCloseable {

    /** The Prometheus scrape route. */
    public static final String METRICS = "/metrics";

    /** The liveness probe's route ({@link WorkerHealth#liveness()}). */
    public static final String LIVE = "/health/live";

    /** The readiness probe's route ({@link WorkerHealth#readiness()}). */
    public static final String READY = "/health/ready";

    private static final String JSON = "application/json";

    private final HttpServer server;
    private final ExecutorService executor;

    private OperationsServer(HttpServer server, ExecutorService executor) {
        this.server = server;
        this.executor = executor;
    }

    /**
     * Listens on {@code port} of every interface (0 = a free port, see {@link #port()}).
     *
     * @param metrics the Prometheus text of the worker's meters, produced per scrape
     * @throws UncheckedIOException when the port cannot be bound
     */
    public static OperationsServer start(int port, WorkerHealth health, Supplier<String> metrics) {
        HttpServer server;
        try {
            server = HttpServer.create(new InetSocketAddress(port), 0);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot listen on port " + port + " (SAM3_WORKER_HTTP_PORT)", e);
        }
        // one route per concept; createContext matches by prefix, so each handler also insists on its exact path
        server.createContext(METRICS, exchange -> answer(exchange, METRICS, 200, WorkerMetrics.contentType(),
                metrics.get()));
        server.createContext(LIVE, exchange -> probe(exchange, LIVE, health.liveness()));
        server.createContext(READY, exchange -> probe(exchange, READY, health.readiness()));
        server.createContext("/", exchange -> answer(exchange, null, 404, JSON, "{\"error\":\"not found\"}"));
        ExecutorService executor = Executors.newSingleThreadExecutor(runnable -> {
            Thread t = new Thread(runnable, "sam3-worker-http");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(executor);
        server.start();
        return new OperationsServer(server, executor);
    }

    /** The port it listens on. */
    public int port() {
        return server.getAddress().getPort();
    }

    /** Stops listening at once; a scrape under way is cut off. */
    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }

    private static void probe(HttpExchange exchange, String path, WorkerHealth.Probe probe) throws IOException {
        answer(exchange, path, probe.passes() ? 200 : 503, JSON, probe.json());
    }

    /** Answers {@code body}, or 404 off the exact path and 405 to anything but GET and HEAD. */
    private static void answer(HttpExchange exchange, String path, int status, String contentType, String body)
            throws IOException {
        try (exchange) {
            String method = exchange.getRequestMethod();
            if (path != null && !exchange.getRequestURI().getPath().equals(path)) {
                status = 404;
                contentType = JSON;
                body = "{\"error\":\"not found\"}";
            } else if (!method.equals("GET") && !method.equals("HEAD")) {
                exchange.getResponseHeaders().set("Allow", "GET, HEAD");
                status = 405;
                contentType = JSON;
                body = "{\"error\":\"method not allowed\"}";
            }
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", contentType);
            exchange.getResponseHeaders().set("Cache-Control", "no-store");
            if (method.equals("HEAD")) {
                exchange.sendResponseHeaders(status, -1);
                return;
            }
            exchange.sendResponseHeaders(status, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }
}
