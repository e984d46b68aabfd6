package io.sam3stream.facade.reply;

import io.opentelemetry.context.Context;
import io.sam3stream.avro.ErrorCode;
import io.sam3stream.avro.SegmentationRequest;
import io.sam3stream.avro.SegmentationResult;
import io.sam3stream.facade.http.ApiException;
import io.sam3stream.facade.kafka.ProduceFailures;
import io.sam3stream.schemas.Topics;
import io.sam3stream.telemetry.SendSpan;
import io.sam3stream.telemetry.Tracing;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Kafka request-reply for one {@link SegmentationRequest}: produces it with Spring Kafka's reply headers (the
 * request id as correlation id, this instance's reply topic and one of its owned partitions) and completes with the
 * {@link SegmentationResult} that comes back. Results are decoded on {@code decoding}, not on the reply consumer's
 * thread, so one large reply never delays the delivery of others.
 */
public final class RequestReplyClient {

    private final Producer<String, SegmentationRequest> producer;
    private final Deserializer<SegmentationResult> resultDeserializer;
    private final String requestsTopic;
    private final String replyTopic;
    private final ReplyPartitions partitions;
    private final PendingReplies pending;
    private final Executor decoding;
    private final Tracing tracing;

    public RequestReplyClient(Producer<String, SegmentationRequest> producer,
            Deserializer<SegmentationResult> resultDeserializer, String requestsTopic, String replyTopic,
            ReplyPartitions partitions, PendingReplies pending, Executor decoding, Tracing tracing) {
        this.producer = producer;
        this.resultDeserializer = resultDeserializer;
        this.requestsTopic = requestsTopic;
        this.replyTopic = replyTopic;
        this.partitions = partitions;
        this.pending = pending;
        this.decoding = decoding;
        this.tracing = tracing;
    }

    /**
     * Sends the request and returns its result. The future fails with an {@link ApiException}: 504 at the
     * deadline, 413 when the record is over the message limit, 503 when no reply partition is owned or Kafka is
     * unreachable, 500 when the reply cannot be decoded.
     *
     * @param trace the caller's trace context, which the request record carries on under its send span
     */
    public CompletableFuture<SegmentationResult> call(SegmentationRequest request, Duration timeout, Context trace) {
        int partition = partitions.next().orElseThrow(() -> ApiException.unavailable(
                "this facade instance reads no partition of " + replyTopic + " yet"));
        String id = request.getRequestId();
        long start = System.nanoTime();
        CompletableFuture<byte[]> reply = pending.register(id, partition, timeout);
        if (!partitions.owns(partition)) {
            // taken away between the choice and the registration: the revocation's purge may have missed this call
            ApiException moved = ApiException.unavailable("reply partition " + partition + " of " + replyTopic
                    + " moved to another facade instance; retry");
            pending.fail(id, moved);
            throw moved;
        }
        RecordHeaders headers = new RecordHeaders();
        headers.add(Topics.ReplyHeaders.CORRELATION_ID, id.getBytes(StandardCharsets.UTF_8));
        headers.add(Topics.ReplyHeaders.REPLY_TOPIC, replyTopic.getBytes(StandardCharsets.UTF_8));
        headers.add(Topics.ReplyHeaders.REPLY_PARTITION, ByteBuffer.allocate(Integer.BYTES).putInt(partition).array());
        SendSpan send = SendSpan.start(tracing, trace, requestsTopic, id, headers);
        try {
            producer.send(new ProducerRecord<>(requestsTopic, null, id, request, headers), (metadata, error) -> {
                send.acknowledged(error);
                if (error != null) {
                    pending.fail(id, produceFailure(error, start, timeout));
                }
            });
        } catch (RuntimeException e) { // serialization and other failures raised before the record is queued
            send.acknowledged(e);
            pending.fail(id, produceFailure(e, start, timeout));
        }
        return reply.thenApplyAsync(value -> decode(id, value), decoding);
    }

    /**
     * The producer waits for metadata and buffer space at most as long as the call's deadline
     * ({@code max.block.ms}), so a producer timeout that ends after the deadline is that deadline passing: 504, as
     * when no reply comes in time. One that ends earlier means Kafka is unreachable (503, {@link ProduceFailures}).
     */
    private static ApiException produceFailure(Throwable error, long startNanos, Duration timeout) {
        if (error instanceof TimeoutException && System.nanoTime() - startNanos >= timeout.toNanos()) {
            return ApiException.of(ErrorCode.DEADLINE_EXCEEDED, "Kafka did not take the request within the "
                    + timeout.toMillis() + " ms deadline: " + error.getMessage());
        }
        return ProduceFailures.toApi(error);
    }

    private SegmentationResult decode(String id, byte[] value) {
        SegmentationResult result;
        try {
            result = resultDeserializer.deserialize(replyTopic, value);
        } catch (RuntimeException e) {
            throw ApiException.internal("the reply could not be decoded: " + e.getMessage());
        }
        if (result == null) {
            throw ApiException.internal("the reply was empty");
        }
        if (!id.equals(result.getRequestId())) {
            throw ApiException.internal("the reply with correlation id " + id + " answers request "
                    + result.getRequestId());
        }
        return result;
    }
}
