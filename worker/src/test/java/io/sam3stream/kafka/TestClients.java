package io.sam3stream.kafka;

import io.sam3stream.avro.SegmentationRequest;
import io.sam3stream.schemas.serde.AvroSerializer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/** What the tests do to a worker from the outside: produce requests (valid or not) and read what comes back. */
final class TestClients {

    private static final Duration SEND_TIMEOUT = Duration.ofSeconds(30);

    private TestClients() {}

    /** Produces requests in the Confluent wire format (registering the schema) and raw bytes. */
    static final class Requests implements AutoCloseable {
        private final KafkaProducer<byte[], byte[]> producer;
        private final AvroSerializer<SegmentationRequest> serializer =
                new AvroSerializer<>(KafkaTestStack.registryClient(), true);
        private final String topic;

        Requests(String topic) {
            this.topic = topic;
            Properties p = new Properties();
            p.put("bootstrap.servers", KafkaTestStack.bootstrapServers());
            p.put("max.request.size", Integer.toString(KafkaTestStack.MAX_MESSAGE_BYTES));
            p.put("linger.ms", "0");
            producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
        }

        /** The request in the wire format, as the serializer writes it. */
        byte[] encode(SegmentationRequest request) {
            return serializer.serialize(topic, request);
        }

        /** Sends {@code request} keyed by its id; returns where it landed. */
        RecordMetadata send(SegmentationRequest request) {
            return send(request, new RecordHeaders());
        }

        RecordMetadata send(SegmentationRequest request, Headers headers) {
            return sendRaw(request.getRequestId().getBytes(StandardCharsets.UTF_8), encode(request), headers);
        }

        RecordMetadata sendRaw(byte[] key, byte[] value, Headers headers) {
            try {
                return producer.send(new ProducerRecord<>(topic, null, key, value, headers))
                        .get(SEND_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException | ExecutionException | TimeoutException e) {
                throw new AssertionError("producing to " + topic + " failed", e);
            }
        }

        @Override
        public void close() {
            producer.close(SEND_TIMEOUT);
        }
    }

    /**
     * Reads every committed record of a topic from the beginning, without a consumer group, until {@code done}
     * accepts what was read or {@code timeout} passes; returns what was read either way.
     */
    static List<ConsumerRecord<byte[], byte[]>> readCommitted(String topic, Duration timeout,
            Predicate<List<ConsumerRecord<byte[], byte[]>>> done) {
        Properties p = new Properties();
        p.put("bootstrap.servers", KafkaTestStack.bootstrapServers());
        p.put("isolation.level", "read_committed");
        p.put("max.partition.fetch.bytes", Integer.toString(KafkaTestStack.MAX_MESSAGE_BYTES));
        List<ConsumerRecord<byte[], byte[]>> read = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            long deadline = System.nanoTime() + timeout.toNanos();
            List<TopicPartition> partitions = List.of();
            while (partitions.isEmpty() && System.nanoTime() < deadline) {
                partitions = consumer.partitionsFor(topic, Duration.ofSeconds(5)).stream()
                        .map(info -> new TopicPartition(topic, info.partition())).toList();
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            while (!done.test(read) && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(100)).forEach(read::add);
            }
        }
        return read;
    }

    /** Reads until at least {@code count} records were read. */
    static List<ConsumerRecord<byte[], byte[]>> readCommitted(String topic, int count, Duration timeout) {
        return readCommitted(topic, timeout, read -> read.size() >= count);
    }

    /** Creates a topic with {@code partitions} partitions. */
    static void createTopic(String name, int partitions) {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", KafkaTestStack.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(name, partitions, (short) 1)))
                    .all().get(SEND_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException | ExecutionException | TimeoutException e) {
            throw new AssertionError("creating topic " + name + " failed", e);
        }
    }
}
