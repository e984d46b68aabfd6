package io.sam3stream.kafka;

import io.sam3stream.avro.WorkerLimits;
import io.sam3stream.config.Knob;
import io.sam3stream.config.Settings;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * The worker's configuration, taken from {@link Settings} once at start-up so that a bad value fails the start
 * rather than a record.
 *
 * @param workerId          worker id: the heartbeat key, the static {@code group.instance.id} and the stem of the
 *                          transactional id
 * @param bootstrapServers  Kafka bootstrap servers
 * @param schemaRegistryUrl Confluent-API schema registry
 * @param consumerGroup     consumer group shared by all workers
 * @param requestsTopic     topic the requests are read from
 * @param resultsTopic      topic of results for requests without reply headers
 * @param deadLetterTopic   topic of records that cannot be decoded
 * @param workersTopic      compacted topic of heartbeats
 * @param topicPartitions   partitions of topics created when missing
 * @param maxMessageBytes   largest Kafka record (topics, producers and consumers are sized from it)
 * @param imageRoot         folder that {@code file://} claim checks must lie under; empty = claim checks refused
 * @param warmupRuns        warm-up forwards before READY
 * @param limits            request bounds the engine enforces, reported in heartbeats
 * @param runtime           runtime switches reported in heartbeats, by knob name
 * @param kafkaOverrides    client properties given as {@code KAFKA_*} variables
 * @param httpPort          port of {@code /metrics} and the health probes: -1 = none, 0 = any free port
 * @param otlpEndpoint      OpenTelemetry collector the spans are exported to; empty = none recorded
 */
public record WorkerConfig(String workerId, String bootstrapServers, String schemaRegistryUrl, String consumerGroup,
        String requestsTopic, String resultsTopic, String deadLetterTopic, String workersTopic, int topicPartitions,
        int maxMessageBytes, Optional<Path> imageRoot, int warmupRuns, WorkerLimits limits,
        Map<String, String> runtime, Properties kafkaOverrides, int httpPort, Optional<URI> otlpEndpoint) {

    /** Knobs that change how the engine runs without changing its answers; heartbeats report them. */
    private static final List<Knob> RUNTIME_KNOBS = List.of(Knob.SAM3_PRECISION, Knob.SAM3_NUM_THREADS,
            Knob.SAM3_TEXT_CACHE_MAX, Knob.SAM3_IMAGE_CACHE_MAX, Knob.SAM3_WARMUP_RUNS, Knob.TT_DEVICE_ID,
            Knob.TT_MESH_SHAPE, Knob.TT_FUSED);

    public WorkerConfig {
        runtime = Map.copyOf(runtime);
        Properties copy = new Properties();
        copy.putAll(kafkaOverrides);
        kafkaOverrides = copy;
    }

    /** The configuration the knobs describe. */
    public static WorkerConfig from(Settings settings) {
        Map<String, String> runtime = new LinkedHashMap<>();
        RUNTIME_KNOBS.forEach(k -> runtime.put(k.name(), settings.get(k)));
        return new WorkerConfig(
                settings.isSet(Knob.SAM3_WORKER_ID) ? settings.get(Knob.SAM3_WORKER_ID)
                        : hostName() + "-" + settings.get(Knob.TT_DEVICE_ID),
                settings.get(Knob.KAFKA_BOOTSTRAP_SERVERS),
                settings.get(Knob.SCHEMA_REGISTRY_URL),
                settings.get(Knob.SAM3_CONSUMER_GROUP),
                settings.get(Knob.SAM3_REQUESTS_TOPIC),
                settings.get(Knob.SAM3_RESULTS_TOPIC),
                settings.get(Knob.SAM3_DLQ_TOPIC),
                settings.get(Knob.SAM3_WORKERS_TOPIC),
                settings.getInt(Knob.SAM3_TOPIC_PARTITIONS),
                settings.getInt(Knob.SAM3_MAX_MESSAGE_BYTES),
                settings.isSet(Knob.SAM3_IMAGE_ROOT) ? Optional.of(Path.of(settings.get(Knob.SAM3_IMAGE_ROOT)))
                        : Optional.empty(),
                settings.getInt(Knob.SAM3_WARMUP_RUNS),
                WorkerLimits.newBuilder()
                        .setMaxSide(settings.getInt(Knob.SAM3_MAX_SIDE))
                        .setMaxPixels(settings.getLong(Knob.SAM3_MAX_PIXELS))
                        .setMaxPrompts(settings.getInt(Knob.SAM3_MAX_PROMPTS))
                        .setMaxMessageBytes(settings.getInt(Knob.SAM3_MAX_MESSAGE_BYTES))
                        .build(),
                runtime,
                settings.kafkaOverrides(),
                settings.getInt(Knob.SAM3_WORKER_HTTP_PORT),
                settings.getHttpUrl(Knob.OTEL_EXPORTER_OTLP_ENDPOINT));
    }

    /** The Kafka clients' shared settings. */
    public ClientProperties clientProperties() {
        return new ClientProperties(bootstrapServers, maxMessageBytes, kafkaOverrides);
    }

    /** The topics the worker reads and writes, as they are created when missing. */
    public List<TopicSetup.TopicSpec> topics() {
        return List.of(
                new TopicSetup.TopicSpec(requestsTopic, topicPartitions, false),
                new TopicSetup.TopicSpec(resultsTopic, topicPartitions, false),
                new TopicSetup.TopicSpec(deadLetterTopic, topicPartitions, false),
                new TopicSetup.TopicSpec(workersTopic, topicPartitions, true));
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "sam3-worker";
        }
    }
}
