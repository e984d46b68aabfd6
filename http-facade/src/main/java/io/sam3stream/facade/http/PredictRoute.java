package io.sam3stream.facade.http;

import io.javalin.http.ContentType;
import io.javalin.http.Context;
import io.javalin.http.Handler;
import io.sam3stream.avro.SegmentationRequest;
import io.sam3stream.avro.Status;
import io.sam3stream.facade.metrics.FacadeMetrics;
import io.sam3stream.facade.predict.PredictRequestParser;
import io.sam3stream.facade.reply.RequestReplyClient;
import io.sam3stream.facade.workers.WorkerDirectory;
import io.sam3stream.schemas.json.ResultRenderer;
import java.time.Clock;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * {@code POST /predict}: admit (429), check the content type (422), read the body (413, 408 when it arrives too
 * slowly), validate (422, 400), check that a worker is READY
 * (503), then hand the request to Kafka and answer asynchronously when its reply arrives (or 504 at the deadline).
 * No thread waits for the reply: the response is written when the reply's future completes.
 */
public final class PredictRoute implements Handler {

    private final InFlightLimiter limiter;
    private final long maxBodyBytes;
    private final PredictRequestParser parser;
    private final WorkerDirectory workers;
    private final RequestReplyClient kafka;
    private final ResultRenderer renderer;
    private final FacadeMetrics metrics;
    private final Duration replyTimeout;
    private final Clock clock;

    public PredictRoute(InFlightLimiter limiter, long maxBodyBytes, PredictRequestParser parser,
            WorkerDirectory workers, RequestReplyClient kafka, ResultRenderer renderer, FacadeMetrics metrics,
            Duration replyTimeout, Clock clock) {
        this.limiter = limiter;
        this.maxBodyBytes = maxBodyBytes;
        this.parser = parser;
        this.workers = workers;
        this.kafka = kafka;
        this.renderer = renderer;
        this.metrics = metrics;
        this.replyTimeout = replyTimeout;
        this.clock = clock;
    }

    @Override
    public void handle(Context ctx) {
        InFlightLimiter.Permit permit = limiter.admit();
        CompletableFuture<byte[]> response;
        try {
            JsonContentType.require(ctx.header("Content-Type"));
            byte[] body = BodyReader.read(ctx, maxBodyBytes);
            SegmentationRequest request = parser.parse(body, UUID.randomUUID().toString(),
                    clock.instant().plus(replyTimeout));
            if (!workers.anyReady()) {
                throw ApiException.unavailable("no worker is READY yet");
            }
            response = kafka.call(request, replyTimeout, HttpServerSpans.contextOf(ctx)).thenApply(result -> {
                if (result.getStatus() != Status.OK) {
                    throw ApiException.ofError(result.getError());
                }
                byte[] json = renderer.render(result);
                metrics.stages(result.getTimingMs());
                return json;
            });
        } catch (RuntimeException e) {
            permit.release();
            throw e;
        }
        ctx.future(() -> response
                .whenComplete((json, error) -> permit.release())
                .thenAccept(json -> ctx.contentType(ContentType.APPLICATION_JSON).result(json)));
    }
}
