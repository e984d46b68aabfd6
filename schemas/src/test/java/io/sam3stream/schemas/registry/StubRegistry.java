package io.sam3stream.schemas.registry;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * An HTTP server that answers canned bodies and records every request, so tests can count what a client asks
 * and see exactly how it asks.
 */
final class StubRegistry implements AutoCloseable {

    /** One request as the server saw it. */
    record Seen(String method, String rawPath, String accept, String contentType, String authorization,
            String body) {
    }

    /** A canned answer; {@code delayMillis} holds it back first. */
    record Answer(int status, String contentType, String body, long delayMillis) {
        static Answer json(int status, String body) {
            return new Answer(status, RegistryApi.CONTENT_TYPE, body, 0);
        }
    }

    private final HttpServer server;
    private final ExecutorService executor = Executors.newFixedThreadPool(4);
    private final Map<String, Answer> answers = new ConcurrentHashMap<>();
    private final List<Seen> seen = new CopyOnWriteArrayList<>();

    StubRegistry() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::handle);
        server.setExecutor(executor);
        server.start();
    }

    /** Answers {@code method rawPath} with {@code answer} from now on. */
    void answer(String method, String rawPath, Answer answer) {
        answers.put(method + " " + rawPath, answer);
    }

    URI url() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    List<Seen> seen() {
        return List.copyOf(seen);
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String rawPath = exchange.getRequestURI().getRawPath();
            seen.add(new Seen(exchange.getRequestMethod(), rawPath,
                    exchange.getRequestHeaders().getFirst("Accept"),
                    exchange.getRequestHeaders().getFirst("Content-Type"),
                    exchange.getRequestHeaders().getFirst("Authorization"),
                    new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8)));
            Answer answer = answers.getOrDefault(exchange.getRequestMethod() + " " + rawPath,
                    Answer.json(404, "{\"error_code\":404,\"message\":\"HTTP 404 Not Found\"}"));
            if (answer.delayMillis() > 0) {
                Thread.sleep(answer.delayMillis());
            }
            byte[] body = answer.body().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", answer.contentType());
            exchange.sendResponseHeaders(answer.status(), body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
