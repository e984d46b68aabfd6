package io.sam3stream.facade.jobs;

import io.opentelemetry.context.Context;
import io.sam3stream.avro.SegmentationRequest;
import io.sam3stream.facade.kafka.ProduceFailures;
import io.sam3stream.telemetry.SendSpan;
import io.sam3stream.telemetry.Tracing;
import java.time.Clock;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Writes a job submission: the request, keyed by its id, to the submissions topic with the submission time as the
 * record's timestamp. The value is encoded under the requests topic's subject, because the index forwards these
 * exact bytes to the requests topic: the workers see the same record a {@code /predict} would have produced, minus
 * the reply headers.
 */
public final class JobSubmitter {

    private final Producer<String, byte[]> producer;
    private final Serializer<SegmentationRequest> requests;
    private final String requestsTopic;
    private final String submissionsTopic;
    private final Clock clock;
    private final Tracing tracing;

    public JobSubmitter(Producer<String, byte[]> producer, Serializer<SegmentationRequest> requests,
            String requestsTopic, String submissionsTopic, Clock clock, Tracing tracing) {
        this.producer = producer;
        this.requests = requests;
        this.requestsTopic = requestsTopic;
        this.submissionsTopic = submissionsTopic;
        this.clock = clock;
        this.tracing = tracing;
    }

    /**
     * Completes once the broker has the submission; fails with the {@code ApiException} of
     * {@link ProduceFailures#toApi}.
     *
     * @param trace the caller's trace context; the submission carries it on, and the index forwards it with the
     *              request to the workers
     */
    public CompletableFuture<Void> submit(SegmentationRequest request, Context trace) {
        CompletableFuture<Void> acknowledged = new CompletableFuture<>();
        RecordHeaders headers = new RecordHeaders();
        SendSpan send = SendSpan.start(tracing, trace, submissionsTopic, request.getRequestId(), headers);
        try {
            byte[] value = requests.serialize(requestsTopic, request);
            producer.send(new ProducerRecord<>(submissionsTopic, null, clock.millis(), request.getRequestId(), value,
                            headers),
                    (metadata, error) -> {
                        send.acknowledged(error);
                        if (error == null) {
                            acknowledged.complete(null);
                        } else {
                            acknowledged.completeExceptionally(ProduceFailures.toApi(error));
                        }
                    });
        } catch (RuntimeException e) { // serialization (registry down) and buffer failures come before the send
            send.acknowledged(e);
            acknowledged.completeExceptionally(ProduceFailures.toApi(e));
        }
        return acknowledged;
    }
}
