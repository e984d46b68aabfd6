package io.sam3stream.operations;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Context;
import io.sam3stream.engine.Inference;
import io.sam3stream.engine.PreparedRequest;
import io.sam3stream.telemetry.MessagingAttributes;
import io.sam3stream.telemetry.Tracing;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Headers;

/**
 * The spans of one request record in the worker: a {@code process <topic>} consumer span, child of whatever trace
 * context the record's headers carry (the facade's, or a producer's own), with a child span per stage of the
 * pipeline and, under the forward, one per model module. Its context goes into the result's headers, so a reader of
 * the results topic continues the same trace.
 *
 * <p>Stage spans time what the pipeline itself runs. The engine reports its inner steps (decode and preprocess
 * within {@code prepare}; image encoder, text encoder and grounding within {@code forward}) as durations; their
 * spans are laid end to end from the start of the stage, in the order the engine runs them.
 */
public final class RecordTrace {

    static final AttributeKey<String> REQUEST_ID = AttributeKey.stringKey("sam3.request_id");
    static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("sam3.outcome");
    static final AttributeKey<String> ERROR_CODE = AttributeKey.stringKey("sam3.error_code");
    static final AttributeKey<Boolean> IMAGE_CACHED = AttributeKey.booleanKey("sam3.image_features_cached");
    static final AttributeKey<Long> PROMPTS = AttributeKey.longKey("sam3.prompts");

    private final Tracing tracing;
    private final Span process;
    private final Context context;

    private RecordTrace(Tracing tracing, Span process) {
        this.tracing = tracing;
        this.process = process;
        this.context = Context.root().with(process);
    }

    /** Starts the record's consumer span, as the child of the context its headers carry. */
    public static RecordTrace start(Tracing tracing, ConsumerRecord<?, ?> record, String consumerGroup) {
        Span span = tracing.tracer().spanBuilder("process " + record.topic())
                .setParent(tracing.extract(record.headers()))
                .setSpanKind(SpanKind.CONSUMER)
                .setAttribute(MessagingAttributes.SYSTEM, MessagingAttributes.KAFKA)
                .setAttribute(MessagingAttributes.OPERATION, "process")
                .setAttribute(MessagingAttributes.DESTINATION, record.topic())
                .setAttribute(MessagingAttributes.PARTITION, Integer.toString(record.partition()))
                .setAttribute(MessagingAttributes.OFFSET, record.offset())
                .setAttribute(MessagingAttributes.CONSUMER_GROUP, consumerGroup)
                .setAttribute(MessagingAttributes.MESSAGE_ID, keyOf(record))
                .startSpan();
        return new RecordTrace(tracing, span);
    }

    /** Names the request once its record decoded. */
    public void requestDecoded(String requestId, int prompts) {
        process.setAttribute(REQUEST_ID, requestId);
        process.setAttribute(PROMPTS, prompts);
    }

    /** Runs one stage of the pipeline in a child span; a failure is recorded on it and thrown on. */
    public <T> T stage(String name, Supplier<T> work) {
        return stage(name, work, (span, start, result) -> { });
    }

    /** {@code prepare}: the engine's image decode and preprocess, with a span for each. */
    public PreparedRequest prepare(Supplier<PreparedRequest> work) {
        return stage("prepare", work, (span, start, prepared) -> {
            long decoded = step(span, "decode", start, prepared.decodeMs());
            step(span, "preprocess", decoded, prepared.preprocessMs());
        });
    }

    /** {@code forward}: the model on the device, with a span for each module that ran. */
    public Inference forward(Supplier<Inference> work) {
        return stage("forward", work, (span, start, inference) -> {
            span.setAttribute(IMAGE_CACHED, inference.imageFeaturesCached());
            long at = start;
            if (!inference.imageFeaturesCached()) {
                at = step(span, "image_encoder", at, inference.imageEncoderMs());
            }
            if (inference.textFeaturesComputed() > 0) {
                at = step(span, "text_encoder", at, inference.textEncoderMs());
            }
            step(span, "grounding", at, inference.groundingMs());
        });
    }

    /** Writes this record's span as the trace context of its result. */
    public void injectInto(Headers resultHeaders) {
        tracing.inject(context, resultHeaders);
    }

    /** Ends the record's span with what it came to. */
    public void end(Verdict verdict) {
        if (verdict instanceof Verdict.Answered answered) {
            process.setAttribute(OUTCOME, answered.status().name());
            if (answered.code() != null) {
                process.setAttribute(ERROR_CODE, answered.code().name());
                process.setStatus(StatusCode.ERROR, answered.code().name());
            }
        } else if (verdict instanceof Verdict.DeadLettered dead) {
            process.setAttribute(OUTCOME, "DEAD_LETTER");
            process.setAttribute(ERROR_CODE, dead.reason());
            process.setStatus(StatusCode.ERROR, "dead-lettered: " + dead.reason());
        }
        process.end();
    }

    /** Ends the record's span for a record whose outcome will not be published (the worker is closing). */
    public void abandon() {
        process.setAttribute(OUTCOME, "ABANDONED");
        process.end();
    }

    /**
     * Runs a stage in a child span whose start is known, then lets {@code steps} add to the span what the stage's
     * result reports (its inner steps, laid out from that start) before the span ends.
     */
    private <T> T stage(String name, Supplier<T> work, StepLayout<T> steps) {
        long start = epochNanos();
        Span span = tracing.tracer().spanBuilder(name).setParent(context)
                .setStartTimestamp(start, TimeUnit.NANOSECONDS).startSpan();
        T result = run(span, work);
        steps.addTo(span, start, result);
        span.end();
        return result;
    }

    /** What a stage's result adds to its span once the stage has run. */
    @FunctionalInterface
    private interface StepLayout<T> {

        /**
         * @param stage      the stage's open span
         * @param startNanos its start, epoch nanoseconds
         */
        void addTo(Span stage, long startNanos, T result);
    }

    /** The record's key as text (the request id, for requests that follow the contract); null when it has none. */
    private static String keyOf(ConsumerRecord<?, ?> record) {
        return record.key() instanceof byte[] key ? new String(key, StandardCharsets.UTF_8) : null;
    }

    /** Runs the work of an open span; a failure is recorded on the span, which it ends, and thrown on. */
    private static <T> T run(Span span, Supplier<T> work) {
        try {
            return work.get();
        } catch (RuntimeException e) {
            span.recordException(e);
            span.setStatus(StatusCode.ERROR, e.getClass().getSimpleName());
            span.end();
            throw e;
        }
    }

    /** A span of {@code millis} from {@code start} under {@code parent}; returns its end. */
    private long step(Span parent, String name, long start, double millis) {
        long end = start + Math.round(millis * 1e6);
        tracing.tracer().spanBuilder(name).setParent(Context.root().with(parent))
                .setStartTimestamp(start, TimeUnit.NANOSECONDS).startSpan().end(end, TimeUnit.NANOSECONDS);
        return end;
    }

    private static long epochNanos() {
        Instant now = Instant.now();
        return TimeUnit.SECONDS.toNanos(now.getEpochSecond()) + now.getNano();
    }
}
