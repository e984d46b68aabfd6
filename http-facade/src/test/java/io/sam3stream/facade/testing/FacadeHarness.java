package io.sam3stream.facade.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sam3stream.config.Settings;
import io.sam3stream.facade.FacadeConfig;
import io.sam3stream.facade.FacadeServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;

/**
 * A {@link FacadeServer} on the shared test broker, configured through the same environment map production reads,
 * and a plain {@code java.net.http} client for it.
 */
public final class FacadeHarness implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final FacadeServer server;
    private final String token;

    private FacadeHarness(FacadeServer server, String token) {
        this.server = server;
        this.token = token;
    }

    /**
     * Starts a facade on a free port of the loopback interface.
     *
     * @param env knobs of this facade (topics, limits); the broker and registry are filled in
     */
    public static FacadeHarness start(Map<String, String> env) throws InterruptedException {
        Map<String, String> all = new HashMap<>(env);
        all.put("KAFKA_BOOTSTRAP_SERVERS", TestStack.bootstrapServers());
        all.put("SCHEMA_REGISTRY_URL", TestStack.registryUrl());
        all.put("SAM3_PORT", "0");
        FacadeServer server = new FacadeServer(FacadeConfig.from(Settings.from(all), "127.0.0.1")).start();
        String keys = all.getOrDefault("SAM3_API_KEYS", "");
        return new FacadeHarness(server, keys.isBlank() ? null : keys.split(",")[0].trim());
    }

    public FacadeServer server() {
        return server;
    }

    public URI uri(String path) {
        return URI.create("http://127.0.0.1:" + server.port() + path);
    }

    /** POST /predict with this JSON body (and the bearer token when the facade requires one). */
    public HttpResponse<String> predict(String body) {
        return await(predictAsync(body));
    }

    public CompletableFuture<HttpResponse<String>> predictAsync(String body) {
        return CLIENT.sendAsync(authorized(HttpRequest.newBuilder(uri("/predict")))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** POST /v1/jobs with this JSON body, and an {@code Idempotency-Key} unless it is null. */
    public HttpResponse<String> submitJob(String body, String idempotencyKey) {
        return await(submitJobAsync(body, idempotencyKey));
    }

    public CompletableFuture<HttpResponse<String>> submitJobAsync(String body, String idempotencyKey) {
        HttpRequest.Builder request = authorized(HttpRequest.newBuilder(uri("/v1/jobs")))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (idempotencyKey != null) {
            request.header("Idempotency-Key", idempotencyKey);
        }
        return CLIENT.sendAsync(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Waits until the job store serves /v1/jobs (topics set up, state restored). */
    public FacadeHarness awaitJobStore() throws InterruptedException {
        if (!server.awaitJobStore(Duration.ofSeconds(60))) {
            throw new AssertionError("the job store did not start within 60 s");
        }
        return this;
    }

    /** Sends any request built against this facade, adding the bearer token. */
    public HttpResponse<String> send(HttpRequest.Builder request) {
        return await(CLIENT.sendAsync(authorized(request).build(), HttpResponse.BodyHandlers.ofString()));
    }

    /** Sends a request exactly as built (no token added). */
    public static HttpResponse<String> sendRaw(HttpRequest request) {
        return await(CLIENT.sendAsync(request, HttpResponse.BodyHandlers.ofString()));
    }

    public HttpResponse<String> get(String path) {
        return send(HttpRequest.newBuilder(uri(path)).GET());
    }

    /** Waits until {@code /health} says ok (a worker is READY and a reply partition is read). */
    public FacadeHarness awaitHealthy() throws InterruptedException {
        awaitTrue(Duration.ofSeconds(30), () -> get("/health").statusCode() == 200);
        return this;
    }

    public static JsonNode json(HttpResponse<String> response) {
        try {
            return JSON.readTree(response.body());
        } catch (IOException e) {
            throw new UncheckedIOException("not JSON: " + response.body(), e);
        }
    }

    /** Polls a condition until it holds or the time is up (then fails). */
    public static void awaitTrue(Duration timeout, BooleanSupplier condition) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("condition not met within " + timeout);
            }
            Thread.sleep(50);
        }
    }

    private HttpRequest.Builder authorized(HttpRequest.Builder request) {
        return token == null ? request : request.header("Authorization", "Bearer " + token);
    }

    private static <T> T await(CompletableFuture<T> future) {
        try {
            return future.get(60, java.util.concurrent.TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("HTTP call failed", e);
        }
    }

    @Override
    public void close() {
        server.stop();
    }
}
