package io.sam3stream.telemetry;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import java.net.URI;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * One service's tracing: its {@link Tracer} and the W3C trace-context propagation it uses on HTTP headers and
 * Kafka record headers.
 *
 * <p>With {@code OTEL_EXPORTER_OTLP_ENDPOINT} set, spans are recorded and exported in batches to that OTLP/HTTP
 * collector. Without it no span is recorded at all (the API's no-op tracer, which costs nothing per record), yet a
 * request's incoming {@code traceparent} is still handed on unchanged, so the services that do export keep one
 * trace across this one. Sampling follows the caller's decision when there is one and records everything else.
 */
public final class Tracing implements AutoCloseable {

    /** The instrumentation scope every span of sam3-stream is created under. */
    public static final String SCOPE = "io.sam3stream";

    private static final AttributeKey<String> SERVICE_NAME = AttributeKey.stringKey("service.name");
    private static final AttributeKey<String> SERVICE_INSTANCE_ID = AttributeKey.stringKey("service.instance.id");

    /** Room for spans to leave at shutdown; a collector that is down must not hold a stopping worker up long. */
    private static final long SHUTDOWN_SECONDS = 5;

    private static final TextMapPropagator W3C = W3CTraceContextPropagator.getInstance();

    private final OpenTelemetry openTelemetry;
    private final Tracer tracer;
    private final AutoCloseable owned;

    private Tracing(OpenTelemetry openTelemetry, AutoCloseable owned) {
        this.openTelemetry = openTelemetry;
        this.tracer = openTelemetry.getTracer(SCOPE);
        this.owned = owned;
    }

    /**
     * The tracing a service runs with: exported to the collector at {@code endpoint} (the service's
     * {@code OTEL_EXPORTER_OTLP_ENDPOINT}) when there is one, propagation only otherwise.
     *
     * @param serviceName the {@code service.name} of the spans ({@code sam3-worker}, {@code sam3-facade})
     * @param instanceId  the {@code service.instance.id} (the worker id, the facade instance)
     */
    public static Tracing create(Optional<URI> endpoint, String serviceName, String instanceId) {
        if (endpoint.isEmpty()) {
            return propagationOnly();
        }
        Attributes attributes = Attributes.of(SERVICE_NAME, serviceName, SERVICE_INSTANCE_ID, instanceId);
        OtlpHttpSpanExporter exporter = OtlpHttpSpanExporter.builder()
                .setEndpoint(tracesUrl(endpoint.get()))
                .build();
        SdkTracerProvider provider = SdkTracerProvider.builder()
                .setResource(Resource.getDefault().merge(Resource.create(attributes)))
                .setSampler(Sampler.parentBased(Sampler.alwaysOn()))
                .addSpanProcessor(BatchSpanProcessor.builder(exporter).build())
                .build();
        OpenTelemetrySdk sdk = OpenTelemetrySdk.builder()
                .setTracerProvider(provider)
                .setPropagators(ContextPropagators.create(W3C))
                .build();
        return new Tracing(sdk, () -> sdk.shutdown().join(SHUTDOWN_SECONDS, TimeUnit.SECONDS));
    }

    /** No spans recorded; an incoming trace context is passed on as it came. */
    public static Tracing propagationOnly() {
        return new Tracing(OpenTelemetry.propagating(ContextPropagators.create(W3C)), () -> {});
    }

    /**
     * Tracing through an OpenTelemetry the caller owns (and closes), such as an SDK with an in-memory exporter, or
     * the one an embedding application already runs.
     */
    public static Tracing using(OpenTelemetry openTelemetry) {
        return new Tracing(openTelemetry, () -> {});
    }

    /**
     * The collector's traces URL: OTLP/HTTP's rule for the generic endpoint variable is that signals go to
     * {@code /v1/traces} under it, whatever path it has.
     */
    static String tracesUrl(URI endpoint) {
        String base = endpoint.toString();
        return (base.endsWith("/") ? base.substring(0, base.length() - 1) : base) + "/v1/traces";
    }

    /** The tracer of sam3-stream's spans. */
    public Tracer tracer() {
        return tracer;
    }

    /** The trace context that a record's headers carry, as the parent of {@code Context.root()}. */
    public Context extract(Headers headers) {
        return extract(headers, KafkaHeaderCarrier.INSTANCE);
    }

    /** The trace context any carrier holds (HTTP request headers, for example). */
    public <C> Context extract(C carrier, TextMapGetter<C> getter) {
        return openTelemetry.getPropagators().getTextMapPropagator().extract(Context.root(), carrier, getter);
    }

    /** Writes the context's span as {@code traceparent} (and {@code tracestate}) into the record's headers. */
    public void inject(Context context, Headers headers) {
        openTelemetry.getPropagators().getTextMapPropagator().inject(context, headers, KafkaHeaderCarrier.INSTANCE);
    }

    /**
     * A copy of just the trace-context headers of a record ({@code traceparent}, {@code tracestate}), for a record
     * forwarded on whose other headers must not follow it.
     */
    public static Headers traceHeadersOf(Headers headers) {
        RecordHeaders copy = new RecordHeaders();
        for (String field : W3C.fields()) {
            Header header = headers.lastHeader(field);
            if (header != null) {
                copy.add(header);
            }
        }
        return copy;
    }

    /** Flushes and stops the exporter, if this tracing owns one. */
    @Override
    public void close() {
        try {
            owned.close();
        } catch (Exception e) {
            throw new IllegalStateException("tracing did not shut down", e);
        }
    }
}
