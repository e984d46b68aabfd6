package io.sam3stream.label;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.sam3stream.avro.MaskFormat;
import io.sam3stream.avro.Prompt;
import io.sam3stream.avro.SegmentationRequest;
import io.sam3stream.avro.SegmentationResult;
import io.sam3stream.avro.Status;
import io.sam3stream.kafka.ClientProperties;
import io.sam3stream.schemas.json.ResultRenderer;
import io.sam3stream.schemas.registry.SchemaRegistryClient;
import io.sam3stream.schemas.serde.AvroSerializer;
import io.sam3stream.schemas.serde.SpecificAvroDeserializer;
import io.sam3stream.schemas.serde.UndecodableRecordException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Labels through Kafka: each image becomes a request record on the request topic, so every worker of the consumer
 * group shares the run, and its answer is read from the results topic by request id. Only results committed after
 * this labeller started are read (the topic holds every other client's results too), and a record's id carries
 * this run's own prefix, so a result from an earlier, interrupted run is never taken for one of this run's.
 * Workers that die mid-run lose nothing: the group hands their partitions to the others, which answer the records
 * exactly once.
 */
public final class KafkaLabeller implements Labeller {

    private static final Duration POLL = Duration.ofMillis(200);

    private final String requestsTopic;
    private final boolean claimCheck;
    private final Duration timeout;
    private final int concurrency;
    private final KafkaProducer<byte[], byte[]> producer;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final AvroSerializer<SegmentationRequest> requests;
    private final SpecificAvroDeserializer<SegmentationResult> results;
    private final ResultRenderer renderer = new ResultRenderer(new ObjectMapper());
    private final Map<String, CompletableFuture<byte[]>> pending = new ConcurrentHashMap<>();
    private final String runPrefix = "label-" + UUID.randomUUID() + "-";
    private final AtomicLong sequence = new AtomicLong();
    private final CountDownLatch listening = new CountDownLatch(1);
    private final Thread reader;
    private volatile boolean closed;

    /**
     * @param clients       client properties (bootstrap servers, record size, the operator's overrides)
     * @param registry      the schema registry of the stack
     * @param requestsTopic where requests go
     * @param resultsTopic  where the workers publish results of requests without reply headers
     * @param claimCheck    send {@code file://} URIs instead of image bytes (the workers must see the same folder
     *                      under their {@code SAM3_IMAGE_ROOT})
     * @param timeout       how long an image may wait for its result before it is recorded as failed
     * @param concurrency   requests in flight at once, over all workers
     */
    public KafkaLabeller(ClientProperties clients, SchemaRegistryClient registry, String requestsTopic,
            String resultsTopic, boolean claimCheck, Duration timeout, int concurrency) {
        this.requestsTopic = requestsTopic;
        this.claimCheck = claimCheck;
        this.timeout = timeout;
        this.concurrency = concurrency;
        this.requests = new AvroSerializer<>(registry, true);
        this.results = new SpecificAvroDeserializer<>(registry, SegmentationResult.class);
        this.producer = new KafkaProducer<>(clients.producer(), new ByteArraySerializer(), new ByteArraySerializer());
        this.consumer = new KafkaConsumer<>(clients.reader(), new ByteArrayDeserializer(),
                new ByteArrayDeserializer());
        this.reader = new Thread(() -> readResults(resultsTopic), "label-results");
        reader.setDaemon(true);
        reader.start();
        try {
            if (!listening.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                close();
                throw new LabelFailure("the results topic " + resultsTopic + " could not be read within " + timeout);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            close();
            throw new LabelFailure("interrupted while starting to read " + resultsTopic, e);
        }
    }

    @Override
    public CompletableFuture<byte[]> label(DatasetImage image, LabelQuery query) {
        String id = runPrefix + sequence.incrementAndGet();
        SegmentationRequest request;
        try {
            request = request(id, image, query);
        } catch (IOException e) {
            return CompletableFuture.failedFuture(new LabelFailure("cannot read the image: " + e.getMessage(), e));
        }
        byte[] value;
        try {
            value = requests.serialize(requestsTopic, request);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(new LabelFailure("cannot encode the request: " + e.getMessage(), e));
        }
        CompletableFuture<byte[]> answer = new CompletableFuture<>();
        pending.put(id, answer);
        answer.whenComplete((r, e) -> pending.remove(id));
        producer.send(new ProducerRecord<>(requestsTopic, id.getBytes(StandardCharsets.UTF_8), value), (m, e) -> {
            if (e != null) {
                answer.completeExceptionally(new LabelFailure("producing the request failed: " + e.getMessage(), e));
            }
        });
        return answer.orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS).exceptionallyCompose(e -> {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            return CompletableFuture.failedFuture(cause instanceof LabelFailure ? cause
                    : new LabelFailure("no result within " + timeout + " (request " + id + ")"));
        });
    }

    private SegmentationRequest request(String id, DatasetImage image, LabelQuery query) throws IOException {
        SegmentationRequest.Builder b = SegmentationRequest.newBuilder()
                .setRequestId(id)
                .setPrompts(query.prompts().stream().map(p -> Prompt.newBuilder().setText(p).setBoxes(List.of())
                        .build()).toList())
                .setThreshold(query.threshold())
                .setMaxInstances(query.maxInstances())
                .setMaskFormat(MaskFormat.rle_compressed);
        if (claimCheck) {
            b.setImage(null).setImageUri(image.path().toAbsolutePath().toUri().toString());
        } else {
            b.setImage(ByteBuffer.wrap(Files.readAllBytes(image.path()))).setImageUri(null);
        }
        return b.build();
    }

    private void readResults(String resultsTopic) {
        try {
            List<TopicPartition> partitions = consumer.partitionsFor(resultsTopic, timeout).stream()
                    .map(info -> new TopicPartition(resultsTopic, info.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToEnd(partitions);
            partitions.forEach(consumer::position); // fixes "the end" now, before the first request is sent
            listening.countDown();
            while (!closed) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
                    accept(record);
                }
            }
        } catch (WakeupException e) {
            // close() woke the reader
        } catch (RuntimeException e) {
            LabelFailure failure = new LabelFailure("reading " + resultsTopic + " failed: " + e.getMessage(), e);
            pending.values().forEach(f -> f.completeExceptionally(failure));
        } finally {
            consumer.close();
        }
    }

    private void accept(ConsumerRecord<byte[], byte[]> record) {
        if (record.key() == null) {
            return;
        }
        CompletableFuture<byte[]> answer = pending.get(new String(record.key(), StandardCharsets.UTF_8));
        if (answer == null) {
            return; // another client's result, or one this run stopped waiting for
        }
        SegmentationResult result;
        try {
            result = results.deserialize(record.topic(), record.value());
        } catch (UndecodableRecordException e) {
            answer.completeExceptionally(new LabelFailure("the result cannot be read: " + e.getMessage(), e));
            return;
        }
        if (result.getStatus() == Status.OK) {
            answer.complete(renderer.render(result));
        } else {
            answer.completeExceptionally(new LabelFailure(result.getError() == null ? "ERROR without detail"
                    : result.getError().getCode() + ": " + result.getError().getMessage()));
        }
    }

    @Override
    public int concurrency() {
        return concurrency;
    }

    @Override
    public String describe() {
        return "topic " + requestsTopic;
    }

    @Override
    public void close() {
        closed = true;
        consumer.wakeup();
        try {
            reader.join(Duration.ofSeconds(10).toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        producer.close(Duration.ofSeconds(10));
    }
}
