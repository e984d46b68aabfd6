package io.sam3stream.schemas.registry.embedded;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Keeps the registry's state in a compacted single-partition Kafka topic, as Confluent's registry keeps its
 * {@code _schemas} topic: the state survives with the broker's data, and a registry restarted anywhere against
 * the same cluster resumes with the same ids. Each change writes the whole (small) state under one key, so
 * compaction keeps exactly the latest state. One registry should write a topic at a time.
 */
final class KafkaRegistryStore implements RegistryStore {

    /** The default topic. */
    static final String DEFAULT_TOPIC = "_sam3_schemas";

    private static final byte[] KEY = "state".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final ObjectMapper JSON =
            new ObjectMapper().enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);

    private final String bootstrapServers;
    private final String topic;
    private final KafkaProducer<byte[], byte[]> producer;

    KafkaRegistryStore(String bootstrapServers, String topic) throws IOException {
        this.bootstrapServers = bootstrapServers;
        this.topic = topic;
        createTopicIfMissing();
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrapServers);
        p.put("acks", "all");
        p.put("enable.idempotence", "true");
        p.put("delivery.timeout.ms", Long.toString(TIMEOUT.toMillis()));
        p.put("request.timeout.ms", Long.toString(TIMEOUT.toMillis() / 2));
        this.producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
    }

    private void createTopicIfMissing() throws IOException {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrapServers))) {
            NewTopic t = new NewTopic(topic, Optional.of(1), Optional.empty())
                    .configs(Map.of("cleanup.policy", "compact"));
            admin.createTopics(List.of(t)).all().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new IOException("cannot create the registry topic " + topic + ": " + e.getCause(), e);
            }
        } catch (TimeoutException e) {
            throw new IOException("Kafka at " + bootstrapServers + " did not answer within " + TIMEOUT, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while creating " + topic, e);
        }
    }

    @Override
    public RegistrySnapshot load() throws IOException {
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrapServers);
        p.put("enable.auto.commit", "false");
        p.put("isolation.level", "read_committed");
        TopicPartition partition = new TopicPartition(topic, 0);
        byte[] latest = null;
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long end = consumer.endOffsets(List.of(partition), TIMEOUT).get(partition);
            long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (consumer.position(partition, TIMEOUT) < end) {
                if (System.nanoTime() > deadline) {
                    throw new IOException("could not read " + topic + " to its end within " + TIMEOUT);
                }
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    latest = r.value();
                }
            }
        }
        if (latest == null) {
            return RegistrySnapshot.empty();
        }
        try {
            return JSON.readValue(latest, RegistrySnapshot.class);
        } catch (IOException e) {
            throw new IOException("cannot read the schema registry state in " + topic + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void save(RegistrySnapshot snapshot) throws IOException {
        try {
            producer.send(new ProducerRecord<>(topic, 0, KEY, JSON.writeValueAsBytes(snapshot)))
                    .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IOException("cannot save the schema registry state to " + topic + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while saving to " + topic, e);
        }
    }

    @Override
    public String describe() {
        return "topic " + topic + " at " + bootstrapServers;
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(5));
    }
}
