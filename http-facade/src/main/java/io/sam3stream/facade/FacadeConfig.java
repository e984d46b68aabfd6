package io.sam3stream.facade;

import io.sam3stream.config.ConfigException;
import io.sam3stream.config.Knob;
import io.sam3stream.config.Settings;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Properties;

/**
 * The facade's configuration, taken from {@link Settings} once at start-up so that a bad value fails the start
 * instead of a request.
 *
 * @param host               interface the HTTP server binds to
 * @param port               HTTP port (0 = any free port)
 * @param maxInFlight        requests admitted at once; the next gets 429
 * @param replyTimeout       how long a request waits for its reply before 504
 * @param apiKeys            accepted bearer tokens; empty = no authentication
 * @param bootstrapServers   Kafka bootstrap servers
 * @param schemaRegistryUrl  Confluent-API schema registry
 * @param requestsTopic      topic the requests are produced to
 * @param workersTopic       compacted topic of worker heartbeats
 * @param replyTopic         topic the replies come back on
 * @param replyPartitions    reply partitions this instance owns; empty = leased through a consumer group
 * @param topicPartitions    partitions of the reply topic when the facade has to create it
 * @param maxSide            largest accepted image side
 * @param maxPixels          largest accepted image area
 * @param maxPrompts         most prompts per request
 * @param maxMessageBytes    largest Kafka record
 * @param kafkaOverrides     client properties given as {@code KAFKA_*} variables
 * @param jobs               the job store's topics, retention and state folder
 * @param otlpEndpoint       OpenTelemetry collector the spans are exported to; empty = none recorded
 */
public record FacadeConfig(String host, int port, int maxInFlight, Duration replyTimeout, List<String> apiKeys,
        String bootstrapServers, String schemaRegistryUrl, String requestsTopic, String workersTopic,
        String replyTopic, List<Integer> replyPartitions, int topicPartitions, int maxSide, long maxPixels,
        int maxPrompts, int maxMessageBytes, Properties kafkaOverrides, JobsConfig jobs,
        Optional<URI> otlpEndpoint) {

    /** Room in an HTTP body for everything but the base64 image: prompts, exemplar boxes, field names. */
    private static final int JSON_OVERHEAD_BYTES = 64 * 1024;

    /** The configuration the knobs describe, served on {@code host}. */
    public static FacadeConfig from(Settings settings, String host) {
        return new FacadeConfig(
                host,
                settings.getInt(Knob.SAM3_PORT),
                settings.getInt(Knob.SAM3_MAX_IN_FLIGHT),
                Duration.ofMillis(settings.getLong(Knob.SAM3_REPLY_TIMEOUT_MS)),
                settings.getList(Knob.SAM3_API_KEYS),
                settings.get(Knob.KAFKA_BOOTSTRAP_SERVERS),
                settings.get(Knob.SCHEMA_REGISTRY_URL),
                settings.get(Knob.SAM3_REQUESTS_TOPIC),
                settings.get(Knob.SAM3_WORKERS_TOPIC),
                settings.get(Knob.SAM3_REPLY_TOPIC),
                partitions(settings),
                settings.getInt(Knob.SAM3_TOPIC_PARTITIONS),
                settings.getInt(Knob.SAM3_MAX_SIDE),
                settings.getLong(Knob.SAM3_MAX_PIXELS),
                settings.getInt(Knob.SAM3_MAX_PROMPTS),
                settings.getInt(Knob.SAM3_MAX_MESSAGE_BYTES),
                settings.kafkaOverrides(),
                new JobsConfig(settings.get(Knob.SAM3_RESULTS_TOPIC), settings.get(Knob.SAM3_JOB_SUBMISSIONS_TOPIC),
                        settings.get(Knob.SAM3_JOBS_TOPIC), settings.getDuration(Knob.SAM3_JOB_RETENTION),
                        settings.get(Knob.SAM3_JOB_STATE_DIR)),
                settings.getHttpUrl(Knob.OTEL_EXPORTER_OTLP_ENDPOINT));
    }

    /**
     * What the asynchronous job API ({@code /v1/jobs}) needs beyond the request path.
     *
     * @param resultsTopic     where workers publish the results of requests without reply headers
     * @param submissionsTopic where the facade writes job submissions (partitioned as {@code resultsTopic})
     * @param jobsTopic        compacted view of every job, read by every facade instance into its store
     * @param retention        how long a job stays readable after it finished (or was submitted, while pending)
     * @param stateDir         folder of the local store; empty for a fresh temporary folder per start
     */
    public record JobsConfig(String resultsTopic, String submissionsTopic, String jobsTopic, Duration retention,
            String stateDir) {
    }

    /**
     * The largest HTTP body accepted: a base64 image that still fits a Kafka record once decoded (base64 is 4/3
     * of the bytes) plus the JSON around it. A body that passes can still be refused with 413 when its record
     * turns out too large.
     */
    public long maxBodyBytes() {
        return (long) maxMessageBytes * 4 / 3 + JSON_OVERHEAD_BYTES;
    }

    /** Whether bearer tokens are required. */
    public boolean authRequired() {
        return !apiKeys.isEmpty();
    }

    private static List<Integer> partitions(Settings settings) {
        return settings.getList(Knob.SAM3_REPLY_PARTITIONS).stream().map(p -> {
            try {
                int partition = Integer.parseInt(p);
                if (partition < 0) {
                    throw new NumberFormatException();
                }
                return partition;
            } catch (NumberFormatException e) {
                throw new ConfigException(Knob.SAM3_REPLY_PARTITIONS + ": '" + p + "' is not a partition number");
            }
        }).distinct().toList();
    }
}
