package io.sam3stream.label;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Base64;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * Labels through a facade's {@code POST /predict}. A refusal that says "later" (429, 503: no worker ready, 504: the
 * reply deadline passed) is tried again after a pause, a few times; any other error answer is the image's failure.
 */
public final class HttpLabeller implements Labeller {

    /** Tries of one image before its failure is recorded. */
    static final int ATTEMPTS = 5;

    private static final Duration FIRST_PAUSE = Duration.ofSeconds(1);

    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private final ObjectMapper mapper = new ObjectMapper();
    private final URI predict;
    private final String apiKey;
    private final Duration timeout;
    private final int concurrency;

    /**
     * @param facade      the facade's base URL, e.g. {@code http://localhost:20000}
     * @param apiKey      a bearer token, or null when the facade has no authentication
     * @param timeout     how long one request may take
     * @param concurrency requests in flight at once
     */
    public HttpLabeller(URI facade, String apiKey, Duration timeout, int concurrency) {
        this.predict = facade.resolve("/predict");
        this.apiKey = apiKey;
        this.timeout = timeout;
        this.concurrency = concurrency;
    }

    @Override
    public CompletableFuture<byte[]> label(DatasetImage image, LabelQuery query) {
        byte[] body;
        try {
            body = body(Files.readAllBytes(image.path()), query);
        } catch (IOException e) {
            return CompletableFuture.failedFuture(new LabelFailure("cannot read the image: " + e.getMessage(), e));
        }
        return attempt(body, 1);
    }

    private CompletableFuture<byte[]> attempt(byte[] body, int attempt) {
        HttpRequest.Builder request = HttpRequest.newBuilder(predict).timeout(timeout)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if (apiKey != null) {
            request.header("Authorization", "Bearer " + apiKey);
        }
        return client.sendAsync(request.build(), HttpResponse.BodyHandlers.ofByteArray())
                .handle((response, error) -> {
                    if (response != null && response.statusCode() == 200) {
                        return CompletableFuture.completedFuture(response.body());
                    }
                    boolean later = response == null || isRetryable(response.statusCode());
                    String reason = response == null ? "no answer from " + predict + ": " + rootMessage(error)
                            : "HTTP " + response.statusCode() + ": "
                                    + new String(response.body(), StandardCharsets.UTF_8).strip();
                    if (!later || attempt >= ATTEMPTS) {
                        return CompletableFuture.<byte[]>failedFuture(new LabelFailure(reason
                                + (later ? " (after " + attempt + " tries)" : "")));
                    }
                    Executor pause = CompletableFuture.delayedExecutor(
                            FIRST_PAUSE.toMillis() << (attempt - 1), TimeUnit.MILLISECONDS);
                    return CompletableFuture.supplyAsync(() -> null, pause)
                            .thenCompose(ignored -> attempt(body, attempt + 1));
                })
                .thenCompose(f -> f);
    }

    private static boolean isRetryable(int status) {
        return status == 429 || status == 503 || status == 504;
    }

    private static String rootMessage(Throwable error) {
        Throwable t = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        return t.getClass().getSimpleName() + (t.getMessage() == null ? "" : " " + t.getMessage());
    }

    private byte[] body(byte[] image, LabelQuery query) throws IOException {
        ObjectNode json = mapper.createObjectNode();
        json.put("image", Base64.getEncoder().encodeToString(image));
        query.prompts().forEach(json.putArray("prompts")::add);
        json.put("threshold", query.threshold());
        json.put("max_instances", query.maxInstances());
        json.put("mask_format", LabelQuery.MASK_FORMAT);
        return mapper.writeValueAsBytes(json);
    }

    @Override
    public int concurrency() {
        return concurrency;
    }

    @Override
    public String describe() {
        return predict.toString();
    }

    @Override
    public void close() {
        // the JDK client of Java 17 holds no resources that outlive its last request
    }
}
