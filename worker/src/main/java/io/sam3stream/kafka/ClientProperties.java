package io.sam3stream.kafka;

import java.time.Duration;
import java.util.Properties;

/**
 * Kafka client properties of the worker, derived together so they cannot disagree: message sizes from one
 * limit, and the poll/session/transaction timeouts from how long a forward takes on this device. User
 * overrides ({@code KAFKA_*} variables) are applied last.
 *
 * @param bootstrapServers bootstrap servers
 * @param maxMessageBytes  largest request or result record
 * @param forwardTime      measured (or expected) time of one forward on this worker's device
 * @param overrides        client properties given by the operator
 */
public record ClientProperties(String bootstrapServers, int maxMessageBytes, Duration forwardTime,
        Properties overrides) {

    /**
     * Consumer of the request topic: transactional reads only, no auto-commit, one static member per worker
     * (a restart within the session timeout keeps its partitions instead of reshuffling the group).
     */
    public Properties consumer(String groupId, String instanceId, int pipelineCapacity) {
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrapServers);
        p.put("group.id", groupId);
        p.put("group.instance.id", instanceId);
        p.put("enable.auto.commit", "false");
        p.put("isolation.level", "read_committed");
        p.put("auto.offset.reset", "earliest");
        p.put("partition.assignment.strategy",
                "org.apache.kafka.clients.consumer.CooperativeStickyAssignor");
        p.put("max.poll.records", Integer.toString(pipelineCapacity));
        p.put("max.partition.fetch.bytes", Integer.toString(maxMessageBytes));
        p.put("fetch.max.bytes", Integer.toString(Math.max(maxMessageBytes, 50 << 20)));
        // the loop polls continuously (paused while busy), so the poll interval only has to cover a rebalance
        // callback that finishes the records in flight: one forward per pipeline slot, with a wide margin
        p.put("max.poll.interval.ms", Long.toString(Math.max(300_000, 4 * pipelineCapacity * forwardTime.toMillis())));
        p.put("session.timeout.ms", "45000");
        p.putAll(overrides);
        return p;
    }

    /**
     * Transactional producer of results and dead letters. A transaction spans only the publication of
     * finished records, but a revocation may first wait for in-flight forwards; the timeout covers that.
     */
    public Properties transactionalProducer(String transactionalId, int pipelineCapacity) {
        Properties p = producer();
        p.put("transactional.id", transactionalId);
        p.put("transaction.timeout.ms",
                Long.toString(Math.max(60_000, 2 * pipelineCapacity * forwardTime.toMillis())));
        p.putAll(overrides);
        return p;
    }

    /** A plain idempotent producer (heartbeats, the facade's requests). */
    public Properties producer() {
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrapServers);
        p.put("acks", "all");
        p.put("enable.idempotence", "true");
        p.put("max.request.size", Integer.toString(maxMessageBytes));
        p.put("buffer.memory", Long.toString(Math.max(32L << 20, 2L * maxMessageBytes)));
        p.put("linger.ms", "0");
        p.putAll(overrides);
        return p;
    }
}
