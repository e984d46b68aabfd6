package io.sam3stream.schemas;

/**
 * The Kafka names every component agrees on: topics, schema-registry subjects and record headers.
 *
 * <p>Topic names here are the defaults; deployments may rename topics, so code takes the topic from its
 * configuration and derives the subject from it with {@link #valueSubject(String)}.
 */
public final class Topics {

    /** {@code SegmentationRequest} records, keyed by request id. */
    public static final String REQUESTS = "sam3.requests";

    /** {@code SegmentationResult} records for requests that named no reply topic, keyed by request id. */
    public static final String RESULTS = "sam3.results";

    /** Request records that could not be decoded, unchanged, with {@link DeadLetterHeaders}. */
    public static final String REQUESTS_DLQ = "sam3.requests.dlq";

    /** Worker status heartbeats, keyed by worker id; compacted, so the latest status of each worker survives. */
    public static final String WORKERS = "sam3.workers";

    private Topics() {
    }

    /**
     * The subject of a topic's record values under Confluent's default {@code TopicNameStrategy}, which both
     * Confluent's serializers and ours use, so their schemas land in the same registry subject.
     */
    public static String valueSubject(String topic) {
        return topic + "-value";
    }

    /**
     * The subject a shared named type ({@link SharedTypes}) is registered under so that other schemas can
     * reference it: its full name, as Confluent's {@code RecordNameStrategy} names subjects.
     */
    public static String referenceSubject(String typeFullName) {
        return typeFullName;
    }

    /** The subject of a topic's record keys under {@code TopicNameStrategy}. */
    public static String keySubject(String topic) {
        return topic + "-key";
    }

    /** {@link #keySubject} or {@link #valueSubject}, as a Kafka serde's {@code isKey} flag selects. */
    public static String subject(String topic, boolean isKey) {
        return isKey ? keySubject(topic) : valueSubject(topic);
    }

    /**
     * Request-reply headers, spelled as Spring Kafka's {@code KafkaHeaders} so that Spring's
     * {@code ReplyingKafkaTemplate} works as a client of the worker without the HTTP facade.
     */
    public static final class ReplyHeaders {

        /** Opaque bytes chosen by the requester; the reply carries the same bytes. */
        public static final String CORRELATION_ID = "kafka_correlationId";

        /** UTF-8 name of the topic the reply goes to. */
        public static final String REPLY_TOPIC = "kafka_replyTopic";

        /** The partition the reply goes to, as a 4-byte big-endian int (Spring's encoding). */
        public static final String REPLY_PARTITION = "kafka_replyPartition";

        private ReplyHeaders() {
        }
    }

    /**
     * Dead-letter context headers, spelled as Kafka Connect's {@code DeadLetterQueueReporter} writes them so that
     * existing DLQ tooling reads our dead letters. Every value is a UTF-8 string, numbers in decimal.
     */
    public static final class DeadLetterHeaders {

        /** The prefix every header below shares. */
        public static final String PREFIX = "__connect.errors.";

        /** Topic the failed record was read from. */
        public static final String TOPIC = PREFIX + "topic";

        /** Partition the failed record was read from. */
        public static final String PARTITION = PREFIX + "partition";

        /** Offset of the failed record. */
        public static final String OFFSET = PREFIX + "offset";

        /** The processing stage that failed; {@link #STAGE_VALUE_CONVERTER} when the value did not decode. */
        public static final String STAGE = PREFIX + "stage";

        /** Class of the component that failed. */
        public static final String EXECUTING_CLASS = PREFIX + "class.name";

        /** Class of the exception. */
        public static final String EXCEPTION_CLASS_NAME = PREFIX + "exception.class.name";

        /** Message of the exception. */
        public static final String EXCEPTION_MESSAGE = PREFIX + "exception.message";

        /** Stack trace of the exception. */
        public static final String EXCEPTION_STACKTRACE = PREFIX + "exception.stacktrace";

        /** Kafka Connect's name for the stage that turns a record's value bytes into data. */
        public static final String STAGE_VALUE_CONVERTER = "VALUE_CONVERTER";

        private DeadLetterHeaders() {
        }
    }
}
