package io.sam3stream.telemetry;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Context;
import org.apache.kafka.common.header.Headers;

/**
 * The producer span of one record sent to Kafka: {@code send <topic>}, from the send until the broker's
 * acknowledgement, whose context the record carries in its headers so that its consumer's span is a child of it.
 */
public final class SendSpan {

    private final Span span;

    private SendSpan(Span span) {
        this.span = span;
    }

    /**
     * Starts the span under {@code parent} and writes its context into {@code headers}.
     *
     * @param messageId the record's key (a request id)
     */
    public static SendSpan start(Tracing tracing, Context parent, String topic, String messageId, Headers headers) {
        Span span = tracing.tracer().spanBuilder("send " + topic)
                .setParent(parent)
                .setSpanKind(SpanKind.PRODUCER)
                .setAttribute(MessagingAttributes.SYSTEM, MessagingAttributes.KAFKA)
                .setAttribute(MessagingAttributes.OPERATION, "send")
                .setAttribute(MessagingAttributes.DESTINATION, topic)
                .setAttribute(MessagingAttributes.MESSAGE_ID, messageId)
                .startSpan();
        tracing.inject(parent.with(span), headers);
        return new SendSpan(span);
    }

    /** Ends the span when the broker answered: {@code error} is null on success. */
    public void acknowledged(Exception error) {
        if (error != null) {
            span.recordException(error);
            span.setStatus(StatusCode.ERROR, error.getClass().getSimpleName());
        }
        span.end();
    }
}
