package io.sam3stream.reliability;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A plain HTTP/1.1 client of one facade, as callers use it: every call is timed from the moment it is sent, and a
 * call that gets no answer within {@link #HANG} counts as a hang (a failed assertion), never as a wait forever.
 */
final class HttpCalls {

    /** No call to a facade may take longer than this, whatever happens behind it. */
    static final Duration HANG = Duration.ofSeconds(180);

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient client = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();
    private final String base;
    private final String token;

    /**
     * @param port  the facade's port on the loopback interface
     * @param token bearer token sent with every call, or null
     */
    HttpCalls(int port, String token) {
        this.base = "http://127.0.0.1:" + port;
        this.token = token;
    }

    /** One finished call. */
    record Answer(int status, String body, HttpResponse<String> response, Duration elapsed) {

        JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new UncheckedIOException("not JSON (status " + status + "): " + body, e);
            }
        }

        Optional<String> header(String name) {
            return response.headers().firstValue(name);
        }

        /** The error body's {@code detail}, or the whole body when it has none. */
        String detail() {
            try {
                JsonNode detail = JSON.readTree(body).get("detail");
                return detail == null ? body : detail.asText();
            } catch (IOException e) {
                return body;
            }
        }

        @Override
        public String toString() {
            return status + " after " + elapsed.toMillis() + " ms: "
                    + (body.length() > 300 ? body.substring(0, 300) + "..." : body);
        }
    }

    URI uri(String path) {
        return URI.create(base + path);
    }

    /** A request builder for {@code path}, carrying the token. */
    HttpRequest.Builder request(String path) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(uri(path));
        return token == null ? builder : builder.header("Authorization", "Bearer " + token);
    }

    /** {@code POST /predict} with a JSON body. */
    CompletableFuture<Answer> predictAsync(String json) {
        return sendAsync(request("/predict").header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build());
    }

    Answer predict(String json) {
        return await(predictAsync(json));
    }

    Answer get(String path) {
        return send(request(path).GET().build());
    }

    Answer send(HttpRequest request) {
        return await(sendAsync(request));
    }

    CompletableFuture<Answer> sendAsync(HttpRequest request) {
        long start = System.nanoTime();
        return client.sendAsync(request, HttpResponse.BodyHandlers.ofString())
                .thenApply(r -> new Answer(r.statusCode(), r.body(), r, Duration.ofNanos(System.nanoTime() - start)));
    }

    /** The answer of a call, failing the test when it hangs. */
    static Answer await(CompletableFuture<Answer> call) {
        try {
            return call.get(HANG.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError("an HTTP call got no answer within " + HANG, e);
        } catch (ExecutionException e) {
            throw new AssertionError("an HTTP call failed: " + e.getCause(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }
}
