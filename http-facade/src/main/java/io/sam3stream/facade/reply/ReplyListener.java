package io.sam3stream.facade.reply;

import io.sam3stream.facade.http.ApiException;
import io.sam3stream.facade.kafka.ConsumerThread;
import io.sam3stream.schemas.Topics;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the reply topic and hands each reply to the call waiting for its correlation id. The partitions read are
 * either fixed by configuration or leased through a consumer group of the facade instances, so that each
 * partition is read by exactly one instance; either way a partition is announced in {@link ReplyPartitions} only
 * after the consumer is positioned at its end, and withdrawn (failing the calls that wait on it) when it is taken
 * away. The thread only looks up and completes; decoding and rendering happen elsewhere.
 */
public final class ReplyListener implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ReplyListener.class);

    private final String topic;
    private final ReplyPartitions owned;
    private final PendingReplies pending;
    private final ConsumerThread<byte[], byte[]> thread;

    private ReplyListener(KafkaConsumer<byte[], byte[]> consumer, String topic, List<Integer> fixedPartitions,
            ReplyPartitions owned, PendingReplies pending) {
        this.topic = topic;
        this.owned = owned;
        this.pending = pending;
        this.thread = new ConsumerThread<>("sam3-facade-replies", consumer,
                c -> setUp(c, fixedPartitions), this::dispatch);
    }

    /** A listener of exactly these partitions (SAM3_REPLY_PARTITIONS). */
    public static ReplyListener assigned(KafkaConsumer<byte[], byte[]> consumer, String topic,
            List<Integer> partitions, ReplyPartitions owned, PendingReplies pending) {
        if (partitions.isEmpty()) {
            throw new IllegalArgumentException("no reply partitions given");
        }
        return new ReplyListener(consumer, topic, List.copyOf(partitions), owned, pending);
    }

    /** A listener of the partitions its consumer group leases to it (the consumer must have a group.id). */
    public static ReplyListener leased(KafkaConsumer<byte[], byte[]> consumer, String topic, ReplyPartitions owned,
            PendingReplies pending) {
        return new ReplyListener(consumer, topic, null, owned, pending);
    }

    /** The consumer group through which the instances sharing a reply topic lease its partitions. */
    public static String leaseGroup(String replyTopic) {
        return "sam3-facade." + replyTopic;
    }

    public void start() {
        thread.start();
    }

    private void setUp(KafkaConsumer<byte[], byte[]> consumer, List<Integer> fixedPartitions) {
        if (fixedPartitions != null) {
            List<TopicPartition> tps = fixedPartitions.stream().map(p -> new TopicPartition(topic, p)).toList();
            consumer.assign(tps);
            takeOver(consumer, tps);
            return;
        }
        consumer.subscribe(List.of(topic), new ConsumerRebalanceListener() {
            @Override
            public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                takeOver(consumer, partitions);
            }

            @Override
            public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                giveUp(partitions, "moved to another facade instance");
            }

            @Override
            public void onPartitionsLost(Collection<TopicPartition> partitions) {
                giveUp(partitions, "lost (this instance left its group)");
            }
        });
    }

    /**
     * Positions at the end, then announces: replies to requests produced from now on lie beyond the position.
     * Earlier replies on the partition belong to calls that no longer wait here.
     */
    private void takeOver(KafkaConsumer<byte[], byte[]> consumer, Collection<TopicPartition> partitions) {
        if (partitions.isEmpty()) {
            return;
        }
        consumer.seekToEnd(partitions);
        partitions.forEach(consumer::position); // resolves the lazy seek now
        owned.add(numbers(partitions));
        LOG.info("reading replies on {} partitions {}", topic, numbers(partitions));
    }

    private void giveUp(Collection<TopicPartition> partitions, String why) {
        if (partitions.isEmpty()) {
            return;
        }
        List<Integer> numbers = numbers(partitions);
        owned.remove(numbers);
        pending.failPartitions(numbers, ApiException.unavailable("reply partition " + numbers + " of " + topic
                + " " + why + " while the request waited; retry"));
        LOG.info("no longer reading replies on {} partitions {}: {}", topic, numbers, why);
    }

    private void dispatch(ConsumerRecords<byte[], byte[]> records) {
        for (ConsumerRecord<byte[], byte[]> record : records) {
            Header header = record.headers().lastHeader(Topics.ReplyHeaders.CORRELATION_ID);
            String correlationId = header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
            pending.deliver(correlationId, record.value());
        }
    }

    private static List<Integer> numbers(Collection<TopicPartition> partitions) {
        return partitions.stream().map(TopicPartition::partition).sorted().toList();
    }

    /** Stops reading; the partitions are no longer owned. */
    @Override
    public void close() {
        thread.close();
        owned.remove(owned.owned());
    }
}
