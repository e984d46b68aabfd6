package io.sam3stream.telemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

class TracingTest {

    private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String PARENT_ID = "00f067aa0ba902b7";
    private static final String TRACEPARENT = "00-" + TRACE_ID + "-" + PARENT_ID + "-01";

    private static Headers withTraceparent(String value) {
        RecordHeaders headers = new RecordHeaders();
        headers.add("traceparent", value.getBytes(StandardCharsets.UTF_8));
        return headers;
    }

    private static String header(Headers headers, String key) {
        return headers.lastHeader(key) == null ? null
                : new String(headers.lastHeader(key).value(), StandardCharsets.UTF_8);
    }

    @Test
    void withoutAnExporterAnIncomingTraceparentIsHandedOnUnchanged() {
        Tracing tracing = Tracing.create(Optional.empty(), "test", "1");
        Span span = tracing.tracer().spanBuilder("process").setParent(tracing.extract(withTraceparent(TRACEPARENT)))
                .startSpan();
        assertFalse(span.isRecording(), "nothing is recorded without an exporter");
        RecordHeaders out = new RecordHeaders();
        tracing.inject(Context.root().with(span), out);
        assertEquals(TRACEPARENT, header(out, "traceparent"));
        span.end();
        tracing.close();
    }

    @Test
    void aRecordedSpanIsTheChildOfTheIncomingContextAndItsOwnContextGoesOn() {
        InMemorySpanExporter spans = InMemorySpanExporter.create();
        try (SdkTracerProvider provider = SdkTracerProvider.builder()
                .addSpanProcessor(SimpleSpanProcessor.create(spans)).build()) {
            Tracing tracing = Tracing.using(OpenTelemetrySdk.builder().setTracerProvider(provider)
                    .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance())).build());
            Span span = tracing.tracer().spanBuilder("process")
                    .setParent(tracing.extract(withTraceparent(TRACEPARENT))).startSpan();
            Headers out = withTraceparent("00-" + "1".repeat(32) + "-" + "2".repeat(16) + "-01");
            tracing.inject(Context.root().with(span), out);
            span.end();

            SpanData recorded = spans.getFinishedSpanItems().get(0);
            assertEquals(TRACE_ID, recorded.getTraceId());
            assertEquals(PARENT_ID, recorded.getParentSpanId());
            assertEquals(1, out.toArray().length, "the record's old traceparent was replaced, not joined");
            assertEquals("00-" + TRACE_ID + "-" + recorded.getSpanId() + "-01", header(out, "traceparent"));
        }
    }

    @Test
    void aMalformedTraceparentStartsANewTrace() {
        Tracing tracing = Tracing.propagationOnly();
        for (String bad : List.of("", "00-zz-yy-01", "00-" + "0".repeat(32) + "-" + PARENT_ID + "-01",
                TRACEPARENT.substring(0, 40))) {
            SpanContext context = Span.fromContext(tracing.extract(withTraceparent(bad))).getSpanContext();
            assertFalse(context.isValid(), bad);
        }
        assertFalse(Span.fromContext(tracing.extract(new RecordHeaders())).getSpanContext().isValid());
    }

    @Test
    void onlyTheTraceContextHeadersAreCopiedForARecordForwardedOn() {
        Headers headers = withTraceparent(TRACEPARENT);
        headers.add("tracestate", "vendor=1".getBytes(StandardCharsets.UTF_8));
        headers.add("kafka_replyTopic", "elsewhere".getBytes(StandardCharsets.UTF_8));
        Headers copy = Tracing.traceHeadersOf(headers);
        assertEquals(TRACEPARENT, header(copy, "traceparent"));
        assertEquals("vendor=1", header(copy, "tracestate"));
        assertNull(copy.lastHeader("kafka_replyTopic"));
        assertEquals(0, Tracing.traceHeadersOf(new RecordHeaders()).toArray().length);
    }

    @Test
    void theTracesUrlIsV1TracesUnderTheEndpoint() {
        assertEquals("http://c:4318/v1/traces", Tracing.tracesUrl(URI.create("http://c:4318")));
        assertEquals("http://c:4318/v1/traces", Tracing.tracesUrl(URI.create("http://c:4318/")));
        assertEquals("https://c/otlp/v1/traces", Tracing.tracesUrl(URI.create("https://c/otlp")));
    }

    @Test
    void withAnEndpointSpansAreExportedOverOtlpHttp() throws Exception {
        List<String> received = new CopyOnWriteArrayList<>();
        HttpServer collector = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        collector.createContext("/", exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            received.add(exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath() + " "
                    + exchange.getRequestHeaders().getFirst("Content-Type") + " "
                    + new String(body, StandardCharsets.ISO_8859_1));
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        collector.start();
        try {
            URI endpoint = URI.create("http://127.0.0.1:" + collector.getAddress().getPort());
            Tracing tracing = Tracing.create(Optional.of(endpoint), "sam3-test-service", "instance-7");
            Span span = tracing.tracer().spanBuilder("a-span-to-export")
                    .setParent(tracing.extract(withTraceparent(TRACEPARENT))).startSpan();
            assertTrue(span.isRecording());
            span.end();
            tracing.close(); // flushes the batch

            assertEquals(1, received.size(), "one export request");
            String request = received.get(0);
            assertTrue(request.startsWith("POST /v1/traces application/x-protobuf "), request.substring(0, 60));
            // protobuf carries strings as their bytes: the span, its service and its instance are in the body
            for (String expected : List.of("a-span-to-export", "sam3-test-service", "instance-7")) {
                assertTrue(request.contains(expected), expected);
            }
            assertNotEquals(-1, request.indexOf(new String(hex(TRACE_ID), StandardCharsets.ISO_8859_1)),
                    "the trace id, as bytes");
        } finally {
            collector.stop(0);
        }
    }

    private static byte[] hex(String s) {
        byte[] out = new byte[s.length() / 2];
        for (int i = 0; i < out.length; i++) {
            out[i] = (byte) Integer.parseInt(s.substring(2 * i, 2 * i + 2), 16);
        }
        return out;
    }
}
