package io.sam3stream.kafka;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks the destinations that requests name in their reply headers. A result sent to a topic or partition that
 * does not exist would fail its transaction, and the same request would fail it again each time it is re-read; so a
 * destination that does not exist is replaced by the results topic, where the requester finds, by request id, an
 * ERROR result saying so ({@code SegmentationPipeline}). Partition counts are cached for a while, since every reply
 * to one requester names the same topic.
 */
final class ReplyTopics {

    private static final Logger LOG = LoggerFactory.getLogger(ReplyTopics.class);

    /** How long a looked-up partition count (or a topic's absence) is trusted. */
    private static final Duration CACHE_TIME = Duration.ofSeconds(60);

    private static final Duration LOOKUP_TIMEOUT = Duration.ofSeconds(30);

    /** Partition count by topic; 0 for a topic that does not exist. */
    private record Known(int partitions, long lookedUpAtMillis) {}

    private final Admin admin;
    private final String resultsTopic;
    private final Backoff backoff;
    private final Clock clock;
    private final Map<String, Known> known = new ConcurrentHashMap<>();

    /**
     * @param admin        client to look topics up with
     * @param resultsTopic where results go when the named destination does not exist
     * @param backoff      pauses between look-ups that fail because the brokers cannot be reached
     * @param clock        time source of the cache
     */
    ReplyTopics(Admin admin, String resultsTopic, Backoff backoff, Clock clock) {
        this.admin = admin;
        this.resultsTopic = resultsTopic;
        this.backoff = backoff;
        this.clock = clock;
    }

    /** {@code wanted} when it exists, else the results topic. */
    ReplyDestination check(ReplyDestination wanted) {
        if (wanted.topic().equals(resultsTopic) && wanted.partition() == null) {
            return wanted; // created by the worker itself
        }
        int partitions = partitions(wanted.topic());
        if (partitions > 0 && (wanted.partition() == null || wanted.partition() < partitions)) {
            return wanted;
        }
        LOG.warn("reply destination {}[{}] does not exist; the result goes to {}", wanted.topic(),
                wanted.partition(), resultsTopic);
        return wanted.redirectedTo(resultsTopic);
    }

    private int partitions(String topic) {
        long now = clock.millis();
        Known cached = known.get(topic);
        if (cached != null && now - cached.lookedUpAtMillis() < CACHE_TIME.toMillis()) {
            return cached.partitions();
        }
        int partitions = backoff.retry("looking up reply topic " + topic, () -> lookUp(topic),
                e -> e instanceof KafkaException);
        known.put(topic, new Known(partitions, now));
        return partitions;
    }

    private int lookUp(String topic) {
        try {
            return admin.describeTopics(List.of(topic)).allTopicNames()
                    .get(LOOKUP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).get(topic).partitions().size();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException || e.getCause() instanceof InvalidTopicException
                    || e.getCause() instanceof TopicAuthorizationException) {
                return 0; // nothing can be sent there
            }
            throw new KafkaException("describing topic " + topic + " failed", e.getCause());
        } catch (TimeoutException e) {
            throw new KafkaException("describing topic " + topic + " timed out", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CancellationException("stopped while describing topic " + topic);
        }
    }
}
