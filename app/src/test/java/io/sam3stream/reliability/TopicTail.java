package io.sam3stream.reliability;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Follows topics from their beginning as a {@code read_committed} reader without a group, on its own thread, and
 * keeps every record by key, so a test can wait for the record a request must lead to.
 */
final class TopicTail implements AutoCloseable {

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Map<String, List<ConsumerRecord<byte[], byte[]>>> byKey = new ConcurrentHashMap<>();
    private final Thread thread;
    private volatile boolean running = true;

    /**
     * @param bootstrapServers the broker
     * @param maxRecordBytes   the largest record to expect
     * @param topics           existing topics to follow
     */
    TopicTail(String bootstrapServers, int maxRecordBytes, List<String> topics) {
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrapServers);
        p.put("isolation.level", "read_committed");
        p.put("max.partition.fetch.bytes", Integer.toString(maxRecordBytes));
        consumer = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        List<TopicPartition> partitions = new ArrayList<>();
        for (String topic : topics) {
            consumer.partitionsFor(topic, Duration.ofSeconds(30))
                    .forEach(info -> partitions.add(new TopicPartition(topic, info.partition())));
        }
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        thread = new Thread(this::run, "topic-tail");
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        try {
            while (running) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(100))) {
                    String key = r.key() == null ? "" : new String(r.key(), StandardCharsets.UTF_8);
                    byKey.computeIfAbsent(key, k -> new CopyOnWriteArrayList<>()).add(r);
                }
            }
        } catch (WakeupException e) {
            // closing
        } finally {
            consumer.close();
        }
    }

    /** Every record read so far with this key, in the order read. */
    List<ConsumerRecord<byte[], byte[]>> records(String key) {
        return byKey.getOrDefault(key, List.of());
    }

    /** How many distinct keys were read so far. */
    int keyCount() {
        return byKey.size();
    }

    /** Waits until a record with this key was read; fails when none comes within {@code timeout}. */
    ConsumerRecord<byte[], byte[]> await(String key, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (records(key).isEmpty()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no record with key " + key + " within " + timeout);
            }
            Thread.sleep(20);
        }
        return records(key).get(0);
    }

    @Override
    public void close() {
        running = false;
        consumer.wakeup();
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
