package io.sam3stream.facade.http;

import io.javalin.http.Context;
import io.javalin.router.Endpoint;
import io.sam3stream.facade.metrics.FacadeMetrics;
import java.time.Duration;

/**
 * Times every HTTP request from its arrival to its response (after any asynchronous completion) and records it
 * by method, matched route and final status.
 */
public final class RequestTiming {

    private static final String STARTED = RequestTiming.class.getName() + ".started";

    private final FacadeMetrics metrics;

    public RequestTiming(FacadeMetrics metrics) {
        this.metrics = metrics;
    }

    /** Runs first, before authentication. */
    public void start(Context ctx) {
        ctx.attribute(STARTED, System.nanoTime());
    }

    /** Runs last, once the status is final. */
    public void finish(Context ctx) {
        Long started = ctx.attribute(STARTED);
        if (started == null) {
            return;
        }
        String route = matchedRoute(ctx);
        metrics.request(ctx.method().name(), route == null ? "unmatched" : route, ctx.statusCode(),
                Duration.ofNanos(System.nanoTime() - started));
    }

    /**
     * The route pattern that matched, never the raw path (unknown paths must not create a meter or a span name
     * each); null when none did.
     */
    static String matchedRoute(Context ctx) {
        Endpoint matched;
        try {
            matched = ctx.endpoints().matchedHttpEndpoint();
        } catch (RuntimeException e) {
            matched = null;
        }
        return matched == null ? null : matched.path;
    }
}
