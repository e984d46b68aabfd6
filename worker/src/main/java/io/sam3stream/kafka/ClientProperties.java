package io.sam3stream.kafka;

import java.util.Properties;

/**
 * Kafka client properties of the worker, derived together so they cannot disagree: every record size from one
 * limit ({@code SAM3_MAX_MESSAGE_BYTES}, which also sizes the topics), and the poll, session and transaction
 * timeouts from {@link ProcessingTimeouts}. The operator's {@code KAFKA_*} overrides are applied last.
 *
 * @param bootstrapServers bootstrap servers
 * @param maxMessageBytes  largest request or result record
 * @param overrides        client properties given by the operator
 */
public record ClientProperties(String bootstrapServers, int maxMessageBytes, Properties overrides) {

    /** The consumer's default {@code fetch.max.bytes}; kept unless one record needs more. */
    private static final int DEFAULT_FETCH_MAX_BYTES = 50 << 20;

    /** The producer's default {@code buffer.memory}; kept unless two records need more. */
    private static final long DEFAULT_BUFFER_MEMORY = 32L << 20;

    public ClientProperties {
        Properties copy = new Properties();
        copy.putAll(overrides);
        overrides = copy;
    }

    /**
     * The consumer of the request topic: committed reads only, no auto-commit (offsets are committed inside the
     * producer's transactions), at most one pipeline's worth of records per poll, and a static member per worker so
     * that a restart keeps its partitions instead of reshuffling the group.
     */
    public Properties consumer(String groupId, String instanceId, ProcessingTimeouts timeouts) {
        Properties p = common();
        p.put("group.id", groupId);
        p.put("group.instance.id", instanceId);
        p.put("enable.auto.commit", "false");
        p.put("isolation.level", "read_committed");
        p.put("auto.offset.reset", "earliest");
        // sticky and cooperative: a member joining or leaving only moves the partitions that have to move
        p.put("partition.assignment.strategy", "org.apache.kafka.clients.consumer.CooperativeStickyAssignor");
        p.put("max.poll.records", Integer.toString(timeouts.pipelineCapacity()));
        p.put("max.partition.fetch.bytes", Integer.toString(maxMessageBytes));
        p.put("fetch.max.bytes", Integer.toString(Math.max(maxMessageBytes, DEFAULT_FETCH_MAX_BYTES)));
        p.put("max.poll.interval.ms", Long.toString(timeouts.maxPollInterval().toMillis()));
        p.put("session.timeout.ms", Long.toString(timeouts.session().toMillis()));
        p.putAll(overrides);
        return p;
    }

    /**
     * The producer of results and dead letters. Its transactional id is stable per worker, so a restarted worker
     * aborts the transaction its previous incarnation left open at once (instead of readers waiting for the
     * transaction timeout) and a zombie with the same id is fenced.
     */
    public Properties transactionalProducer(String transactionalId, ProcessingTimeouts timeouts) {
        Properties p = producer();
        p.put("transactional.id", transactionalId);
        p.put("transaction.timeout.ms", Long.toString(timeouts.transaction().toMillis()));
        p.putAll(overrides);
        return p;
    }

    /** A plain idempotent producer (heartbeats). */
    public Properties producer() {
        Properties p = common();
        p.put("acks", "all");
        p.put("enable.idempotence", "true");
        p.put("max.request.size", Integer.toString(maxMessageBytes));
        p.put("buffer.memory", Long.toString(Math.max(DEFAULT_BUFFER_MEMORY, 2L * maxMessageBytes)));
        p.put("linger.ms", "0");
        p.putAll(overrides);
        return p;
    }

    /**
     * A reader of committed records outside any consumer group (it is assigned partitions, commits nothing), sized
     * for the largest record: what a client collecting results by key uses.
     */
    public Properties reader() {
        Properties p = common();
        p.put("isolation.level", "read_committed");
        p.put("enable.auto.commit", "false");
        p.put("max.partition.fetch.bytes", Integer.toString(maxMessageBytes));
        p.put("fetch.max.bytes", Integer.toString(Math.max(maxMessageBytes, DEFAULT_FETCH_MAX_BYTES)));
        p.putAll(overrides);
        return p;
    }

    /** An admin client (topic creation, reply-topic look-ups). */
    public Properties admin() {
        Properties p = common();
        p.putAll(overrides);
        return p;
    }

    private Properties common() {
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrapServers);
        return p;
    }
}
