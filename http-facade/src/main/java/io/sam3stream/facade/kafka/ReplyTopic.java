package io.sam3stream.facade.kafka;

import io.sam3stream.config.ConfigException;
import io.sam3stream.config.Knob;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * The facades' reply topic: created when missing (the facade is its only reader), and checked against the
 * partitions this instance is configured to own.
 */
public final class ReplyTopic {

    /** Replies are useless once their caller stopped waiting; keep them a little longer for inspection. */
    private static final Duration MIN_RETENTION = Duration.ofHours(1);
    private static final Duration DESCRIBE_PATIENCE = Duration.ofSeconds(30);

    private ReplyTopic() {
    }

    /**
     * Creates the topic unless it exists and returns its partition count.
     *
     * @param partitions      partitions of a new topic
     * @param maxMessageBytes the topic's {@code max.message.bytes}, as large as the largest result
     * @param replyTimeout    how long replies matter
     * @param owned           partitions this instance is configured to own (each must exist)
     */
    public static int ensure(Admin admin, String topic, int partitions, int maxMessageBytes, Duration replyTimeout,
            List<Integer> owned) throws InterruptedException {
        try {
            // a topic just created may not be describable yet: its partition count is the one asked for
            int count = !admin.listTopics().names().get().contains(topic)
                    && create(admin, topic, partitions, maxMessageBytes, replyTimeout)
                    ? partitions
                    : partitionCount(admin, topic);
            for (int p : owned) {
                if (p >= count) {
                    throw new ConfigException(Knob.SAM3_REPLY_PARTITIONS + " names partition " + p + " but " + topic
                            + " has " + count + " partitions");
                }
            }
            return count;
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot set up the reply topic " + topic + ": " + e.getCause(),
                    e.getCause());
        }
    }

    /**
     * The topic's partition count. A topic another instance has just created is listed before every broker can
     * describe it, so an unknown-topic answer is retried for a while.
     */
    private static int partitionCount(Admin admin, String topic) throws InterruptedException, ExecutionException {
        long giveUp = System.nanoTime() + DESCRIBE_PATIENCE.toNanos();
        while (true) {
            try {
                return admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic).partitions().size();
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException) || System.nanoTime() > giveUp) {
                    throw e;
                }
                Thread.sleep(100);
            }
        }
    }

    /** Creates the topic; false when another instance created it first. */
    private static boolean create(Admin admin, String topic, int partitions, int maxMessageBytes,
            Duration replyTimeout) throws InterruptedException, ExecutionException {
        long retention = Math.max(MIN_RETENTION.toMillis(), 2 * replyTimeout.toMillis());
        NewTopic newTopic = new NewTopic(topic, Optional.of(partitions), Optional.empty()).configs(Map.of(
                "max.message.bytes", Integer.toString(maxMessageBytes),
                "cleanup.policy", "delete",
                "retention.ms", Long.toString(retention)));
        try {
            admin.createTopics(List.of(newTopic)).all().get();
            return true;
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw e;
            }
            return false; // another facade instance created it at the same moment
        }
    }
}
