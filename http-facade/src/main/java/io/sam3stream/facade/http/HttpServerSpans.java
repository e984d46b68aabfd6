package io.sam3stream.facade.http;

import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.sam3stream.telemetry.Tracing;
import java.util.Set;

/**
 * A server span per HTTP request, child of the W3C {@code traceparent} the client sent (a new trace when it sent
 * none), from its arrival to its response, asynchronous completion included. Routes read the span's context with
 * {@link #contextOf} to hand it on in the Kafka records they produce. Health probes and metric scrapes make no
 * span: an orchestrator's probe every few seconds would drown the traces worth reading.
 */
public final class HttpServerSpans {

    private static final String SPAN = HttpServerSpans.class.getName() + ".span";

    /** Paths whose GETs are not traced. */
    private static final Set<String> UNTRACED = Set.of("/health", "/metrics");

    private static final AttributeKey<String> METHOD = AttributeKey.stringKey("http.request.method");
    private static final AttributeKey<String> ROUTE = AttributeKey.stringKey("http.route");
    private static final AttributeKey<String> PATH = AttributeKey.stringKey("url.path");
    private static final AttributeKey<Long> STATUS = AttributeKey.longKey("http.response.status_code");

    private final Tracing tracing;

    public HttpServerSpans(Tracing tracing) {
        this.tracing = tracing;
    }

    /** Runs first: starts the request's span. */
    public void start(Context ctx) {
        if (ctx.method() == HandlerType.GET && UNTRACED.contains(ctx.path())) {
            return;
        }
        Span span = tracing.tracer().spanBuilder(ctx.method().name())
                .setParent(tracing.extract(ctx, RequestHeaders.INSTANCE))
                .setSpanKind(SpanKind.SERVER)
                .setAttribute(METHOD, ctx.method().name())
                .setAttribute(PATH, ctx.path())
                .startSpan();
        ctx.attribute(SPAN, span);
    }

    /** Runs last, once the status is final: names the span by its route and ends it. */
    public void finish(Context ctx) {
        Span span = ctx.attribute(SPAN);
        if (span == null) {
            return;
        }
        String route = RequestTiming.matchedRoute(ctx);
        if (route != null) {
            span.updateName(ctx.method().name() + " " + route);
            span.setAttribute(ROUTE, route);
        }
        int status = ctx.statusCode();
        span.setAttribute(STATUS, status);
        if (status >= 500) {
            span.setStatus(StatusCode.ERROR);
        }
        span.end();
    }

    /** The trace context of the request's span, for what the route sends on; the root context when untraced. */
    public static io.opentelemetry.context.Context contextOf(Context ctx) {
        Span span = ctx.attribute(SPAN);
        return span == null ? io.opentelemetry.context.Context.root()
                : io.opentelemetry.context.Context.root().with(span);
    }

    /** The request's headers as a trace-context carrier. */
    private enum RequestHeaders implements TextMapGetter<Context> {
        INSTANCE;

        @Override
        public String get(Context ctx, String key) {
            return ctx == null ? null : ctx.header(key);
        }
    }
}
