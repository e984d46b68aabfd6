package io.sam3stream.telemetry;

import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapSetter;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * Kafka record headers as the carrier of a trace context: {@code traceparent} and {@code tracestate} as UTF-8
 * header values, which is how OpenTelemetry's own Kafka instrumentation and other W3C-aware Kafka clients write
 * them, so a trace started by any of them continues here and the other way round.
 */
enum KafkaHeaderCarrier implements TextMapGetter<Headers>, TextMapSetter<Headers> {
    INSTANCE;

    /** The last header of that name, as a record may carry a header more than once and the last one counts. */
    @Override
    public String get(Headers headers, String key) {
        if (headers == null) {
            return null;
        }
        Header header = headers.lastHeader(key);
        return header == null || header.value() == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    /** Replaces any header of that name, so a record forwarded with new context never carries two. */
    @Override
    public void set(Headers headers, String key, String value) {
        if (headers == null) {
            return;
        }
        headers.remove(key);
        headers.add(key, value.getBytes(StandardCharsets.UTF_8));
    }
}
