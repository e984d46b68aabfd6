package io.sam3stream.telemetry.testing;

import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.sam3stream.telemetry.Tracing;
import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;

/**
 * Tracing whose spans are kept in memory as they end, for tests that check the span tree a request leaves behind.
 */
public final class RecordedSpans implements AutoCloseable {

    private final InMemorySpanExporter exporter = InMemorySpanExporter.create();
    private final OpenTelemetrySdk sdk = OpenTelemetrySdk.builder()
            .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exporter))
                    .build())
            .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
            .build();

    /** The tracing to hand to the services under test; closing it is left to this object. */
    public Tracing tracing() {
        return Tracing.using(sdk);
    }

    /** Every span ended so far. */
    public List<SpanData> ended() {
        return exporter.getFinishedSpanItems();
    }

    /** The one ended span that matches, waiting up to {@code timeout} for it (spans end after the reply is sent). */
    public SpanData await(Predicate<SpanData> match, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            List<SpanData> found = ended().stream().filter(match).toList();
            if (found.size() > 1) {
                throw new AssertionError("more than one span matches: " + found);
            }
            if (found.size() == 1) {
                return found.get(0);
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no span matched within " + timeout + "; ended: " + ended());
            }
            Thread.sleep(20);
        }
    }

    /** The ended spans whose parent is {@code parent}, by name. */
    public List<String> childNames(SpanData parent) {
        return ended().stream().filter(s -> s.getParentSpanId().equals(parent.getSpanId())
                && s.getTraceId().equals(parent.getTraceId())).map(SpanData::getName).sorted().toList();
    }

    /** The ended span of that name under {@code parent}. */
    public SpanData child(SpanData parent, String name) {
        return ended().stream().filter(s -> s.getParentSpanId().equals(parent.getSpanId()) && s.getName().equals(name))
                .findFirst().orElseThrow(() -> new AssertionError("no " + name + " under " + parent.getName()));
    }

    @Override
    public void close() {
        sdk.close();
    }
}
