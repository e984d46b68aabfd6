package io.sam3stream.facade.workers;

import io.sam3stream.avro.WorkerStatus;
import io.sam3stream.facade.kafka.ConsumerThread;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.serialization.Deserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Feeds the {@link WorkerDirectory} from the compacted heartbeat topic: every partition is read from the
 * beginning (the latest status of each worker survives compaction), without a consumer group, so every facade
 * instance sees every worker. Until the topic exists (no worker has started yet) it keeps looking for it.
 */
public final class HeartbeatListener implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(HeartbeatListener.class);
    private static final Duration TOPIC_LOOKUP = Duration.ofSeconds(2);

    private final String topic;
    private final Deserializer<WorkerStatus> deserializer;
    private final WorkerDirectory directory;
    private final ConsumerThread<byte[], byte[]> thread;

    public HeartbeatListener(KafkaConsumer<byte[], byte[]> consumer, String topic,
            Deserializer<WorkerStatus> deserializer, WorkerDirectory directory) {
        this.topic = topic;
        this.deserializer = deserializer;
        this.directory = directory;
        this.thread = new ConsumerThread<>("sam3-facade-heartbeats", consumer, this::assignAll, this::apply);
    }

    public void start() {
        thread.start();
    }

    private void assignAll(KafkaConsumer<byte[], byte[]> consumer) {
        List<PartitionInfo> partitions = consumer.partitionsFor(topic, TOPIC_LOOKUP);
        while (partitions.isEmpty()) {
            LOG.info("waiting for the heartbeat topic {} to be created", topic);
            try {
                Thread.sleep(TOPIC_LOOKUP.toMillis());
            } catch (InterruptedException e) {
                throw new InterruptException(e);
            }
            partitions = consumer.partitionsFor(topic, TOPIC_LOOKUP);
        }
        List<TopicPartition> tps = partitions.stream().map(p -> new TopicPartition(topic, p.partition())).toList();
        consumer.assign(tps);
        consumer.seekToBeginning(tps);
    }

    private void apply(ConsumerRecords<byte[], byte[]> records) {
        for (ConsumerRecord<byte[], byte[]> record : records) {
            if (record.value() == null) {
                if (record.key() != null) {
                    directory.remove(new String(record.key(), StandardCharsets.UTF_8));
                }
                continue;
            }
            try {
                directory.update(deserializer.deserialize(topic, record.value()));
            } catch (RuntimeException e) {
                LOG.warn("skipping an unreadable heartbeat at {}-{}@{}: {}", topic, record.partition(),
                        record.offset(), e.toString());
            }
        }
    }

    @Override
    public void close() {
        thread.close();
    }
}
