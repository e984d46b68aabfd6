package io.sam3stream.facade.kafka;

import io.sam3stream.facade.FacadeConfig;
import java.time.Duration;
import java.util.Properties;

/**
 * Kafka client properties of the facade, derived from its configuration so that sizes agree with the topics'
 * {@code max.message.bytes}; the operator's {@code KAFKA_*} overrides are applied last.
 */
public final class FacadeKafkaProperties {

    /** Upper bound of how long a send may block the HTTP thread waiting for metadata or buffer space. */
    private static final Duration MAX_BLOCK = Duration.ofSeconds(30);

    private final FacadeConfig config;

    public FacadeKafkaProperties(FacadeConfig config) {
        this.config = config;
    }

    /** Producer of requests: idempotent, acknowledged by all replicas, records up to the message limit. */
    public Properties producer(String clientId) {
        Properties p = common(clientId);
        p.put("acks", "all");
        p.put("enable.idempotence", "true");
        p.put("linger.ms", "0");
        p.put("max.request.size", Integer.toString(config.maxMessageBytes()));
        p.put("buffer.memory", Long.toString(Math.max(32L << 20, 2L * config.maxMessageBytes())));
        // a request nobody waits for any more is not worth blocking for
        p.put("max.block.ms", Long.toString(Math.min(MAX_BLOCK.toMillis(), config.replyTimeout().toMillis())));
        return withOverrides(p);
    }

    /**
     * Consumer of the reply topic. Only committed replies are read (a worker's aborted transaction never answers a
     * caller); nothing is committed, because positions start at the end of each partition when it is taken over.
     *
     * @param groupId the lease group, or null when the partitions are assigned by configuration
     */
    public Properties replyConsumer(String clientId, String groupId) {
        Properties p = consumerBase(clientId);
        p.put("auto.offset.reset", "latest");
        if (groupId != null) {
            p.put("group.id", groupId);
            // moving fewer partitions on a rebalance fails fewer waiting calls
            p.put("partition.assignment.strategy",
                    "org.apache.kafka.clients.consumer.CooperativeStickyAssignor");
        }
        return withOverrides(p);
    }

    /** Consumer of the compacted heartbeat topic, read from the beginning without a group. */
    public Properties heartbeatConsumer(String clientId) {
        Properties p = consumerBase(clientId);
        p.put("auto.offset.reset", "earliest");
        return withOverrides(p);
    }

    /**
     * The job store's Kafka Streams application: exactly-once (a submission is forwarded at most once even when an
     * instance dies mid-way), one stream thread, records as large as a result plus the job's fields.
     *
     * @param applicationId  shared by every facade instance of one deployment (they split the index's partitions)
     * @param stateDir       folder of the local stores
     * @param maxRecordBytes largest record of the job store's topics
     */
    public Properties streams(String clientId, String applicationId, String stateDir, int maxRecordBytes) {
        Properties p = common(clientId);
        p.put("application.id", applicationId);
        p.put("state.dir", stateDir);
        p.put("processing.guarantee", "exactly_once_v2");
        p.put("num.stream.threads", "1");
        p.put("commit.interval.ms", "100");
        p.put("statestore.cache.max.bytes", "0"); // the stores are read by GET: every change visible at once
        p.put("producer.max.request.size", Integer.toString(maxRecordBytes));
        p.put("producer.buffer.memory", Long.toString(Math.max(32L << 20, 2L * maxRecordBytes)));
        p.put("consumer.max.partition.fetch.bytes", Integer.toString(maxRecordBytes));
        p.put("consumer.fetch.max.bytes", Integer.toString(Math.max(maxRecordBytes, 50 << 20)));
        return withOverrides(p);
    }

    /** Admin client (topic creation and description). */
    public Properties admin(String clientId) {
        return withOverrides(common(clientId));
    }

    private Properties consumerBase(String clientId) {
        Properties p = common(clientId);
        p.put("isolation.level", "read_committed");
        p.put("enable.auto.commit", "false");
        // looking a topic up must never create it with the broker's defaults (the heartbeat topic is compacted)
        p.put("allow.auto.create.topics", "false");
        p.put("max.partition.fetch.bytes", Integer.toString(config.maxMessageBytes()));
        p.put("fetch.max.bytes", Integer.toString(Math.max(config.maxMessageBytes(), 50 << 20)));
        return p;
    }

    private Properties common(String clientId) {
        Properties p = new Properties();
        p.put("bootstrap.servers", config.bootstrapServers());
        p.put("client.id", clientId);
        return p;
    }

    private Properties withOverrides(Properties p) {
        p.putAll(config.kafkaOverrides());
        return p;
    }
}
