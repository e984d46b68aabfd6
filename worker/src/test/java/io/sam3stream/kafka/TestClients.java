package io.sam3stream.kafka;

import io.sam3stream.avro.SegmentationRequest;
import io.sam3stream.schemas.registry.SchemaRegistryClient;
import io.sam3stream.schemas.serde.AvroSerializer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import java.util.stream.Collectors;
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
public final class TestClients {

    private static final Duration SEND_TIMEOUT = Duration.ofSeconds(30);

    private TestClients() {}

    /** Produces requests in the Confluent wire format (registering the schema) and raw bytes. */
    public static final class Requests implements AutoCloseable {
        private final KafkaProducer<byte[], byte[]> producer;
        private final AvroSerializer<SegmentationRequest> serializer;
        private final String topic;

        /** A producer to this run's test stack. */
        public Requests(String topic) {
            this(KafkaTestStack.bootstrapServers(), KafkaTestStack.registryClient(), KafkaTestStack.MAX_MESSAGE_BYTES,
                    topic);
        }

        /** A producer to another broker and registry. */
        public Requests(String bootstrapServers, SchemaRegistryClient registry, int maxMessageBytes, String topic) {
            this.topic = topic;
            this.serializer = new AvroSerializer<>(registry, true);
            Properties p = new Properties();
            p.put("bootstrap.servers", bootstrapServers);
            p.put("max.request.size", Integer.toString(maxMessageBytes));
            p.put("linger.ms", "0");
            producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
        }

        /** The request in the wire format, as the serializer writes it. */
        public byte[] encode(SegmentationRequest request) {
            return serializer.serialize(topic, request);
        }

        /** Sends {@code request} keyed by its id; returns where it landed. */
        public RecordMetadata send(SegmentationRequest request) {
            return send(request, new RecordHeaders());
        }

        public RecordMetadata send(SegmentationRequest request, Headers headers) {
            return sendRaw(request.getRequestId().getBytes(StandardCharsets.UTF_8), encode(request), headers);
        }

        public RecordMetadata sendRaw(byte[] key, byte[] value, Headers headers) {
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
    public static List<ConsumerRecord<byte[], byte[]>> readCommitted(String topic, Duration timeout,
            Predicate<List<ConsumerRecord<byte[], byte[]>>> done) {
        List<ConsumerRecord<byte[], byte[]>> read = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = readCommittedConsumer()) {
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

    /**
     * Reads until records with each of {@code keys} were read; returns the records with those keys (a topic may
     * hold other tests' records too).
     */
    public static List<ConsumerRecord<byte[], byte[]>> readCommittedKeys(String topic, Collection<String> keys,
            Duration timeout) {
        Predicate<ConsumerRecord<byte[], byte[]>> wanted =
                r -> r.key() != null && keys.contains(new String(r.key(), StandardCharsets.UTF_8));
        return readCommitted(topic, timeout, read -> read.stream().filter(wanted)
                .map(r -> new String(r.key(), StandardCharsets.UTF_8)).collect(Collectors.toSet()).containsAll(keys))
                .stream().filter(wanted).toList();
    }

    /**
     * Every committed record of {@code topic} once records with all of {@code keys} are there, read again after
     * {@code settle} more, so that a late duplicate would be among them.
     */
    public static List<ConsumerRecord<byte[], byte[]>> readAllOnceComplete(String topic, Collection<String> keys,
            Duration timeout, Duration settle) {
        readCommittedKeys(topic, keys, timeout);
        try {
            Thread.sleep(settle.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return readAll(topic);
    }

    /** Every committed record of {@code topic} now: up to each partition's last stable offset. */
    public static List<ConsumerRecord<byte[], byte[]>> readAll(String topic) {
        List<ConsumerRecord<byte[], byte[]>> read = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = readCommittedConsumer()) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, SEND_TIMEOUT).stream()
                    .map(info -> new TopicPartition(topic, info.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions, SEND_TIMEOUT);
            long deadline = System.nanoTime() + SEND_TIMEOUT.toNanos();
            while (partitions.stream().anyMatch(p -> consumer.position(p) < ends.get(p))) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("could not read " + topic + " to its end in " + SEND_TIMEOUT);
                }
                consumer.poll(Duration.ofMillis(100)).forEach(read::add);
            }
        }
        return read;
    }

    /** Watches how far the committed transactions writing to one topic got. */
    public static final class Progress implements AutoCloseable {
        private final KafkaConsumer<byte[], byte[]> consumer = readCommittedConsumer();
        private final List<TopicPartition> partitions;

        public Progress(String topic) {
            partitions = consumer.partitionsFor(topic, SEND_TIMEOUT).stream()
                    .map(info -> new TopicPartition(topic, info.partition())).toList();
            consumer.assign(partitions);
        }

        /**
         * The sum of the partitions' last stable offsets: it grows whenever a transaction writing to the topic
         * commits (it also counts transaction markers, so it measures progress, not records).
         */
        public long stableEnd() {
            return consumer.endOffsets(partitions, SEND_TIMEOUT).values().stream().mapToLong(Long::longValue).sum();
        }

        @Override
        public void close() {
            consumer.close();
        }
    }

    private static KafkaConsumer<byte[], byte[]> readCommittedConsumer() {
        Properties p = new Properties();
        p.put("bootstrap.servers", KafkaTestStack.bootstrapServers());
        p.put("isolation.level", "read_committed");
        p.put("max.partition.fetch.bytes", Integer.toString(KafkaTestStack.MAX_MESSAGE_BYTES));
        return new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    /** Reads until at least {@code count} records were read. */
    public static List<ConsumerRecord<byte[], byte[]>> readCommitted(String topic, int count, Duration timeout) {
        return readCommitted(topic, timeout, read -> read.size() >= count);
    }

    /** Creates a topic with {@code partitions} partitions. */
    public static void createTopic(String name, int partitions) {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", KafkaTestStack.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(name, partitions, (short) 1)))
                    .all().get(SEND_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException | ExecutionException | TimeoutException e) {
            throw new AssertionError("creating topic " + name + " failed", e);
        }
    }
}
