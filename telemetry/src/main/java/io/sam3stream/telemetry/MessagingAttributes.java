package io.sam3stream.telemetry;

import io.opentelemetry.api.common.AttributeKey;

/**
 * The attributes of OpenTelemetry's messaging conventions that sam3-stream's Kafka spans carry, named once so that
 * the producer's and the consumer's spans of one record say the same thing the same way.
 */
public final class MessagingAttributes {

    public static final AttributeKey<String> SYSTEM = AttributeKey.stringKey("messaging.system");
    public static final AttributeKey<String> OPERATION = AttributeKey.stringKey("messaging.operation.type");
    public static final AttributeKey<String> DESTINATION = AttributeKey.stringKey("messaging.destination.name");
    public static final AttributeKey<String> PARTITION = AttributeKey.stringKey("messaging.destination.partition.id");
    public static final AttributeKey<Long> OFFSET = AttributeKey.longKey("messaging.kafka.offset");
    public static final AttributeKey<String> CONSUMER_GROUP = AttributeKey.stringKey("messaging.consumer.group.name");
    public static final AttributeKey<String> MESSAGE_ID = AttributeKey.stringKey("messaging.message.id");

    /** The {@link #SYSTEM} of every span here. */
    public static final String KAFKA = "kafka";

    private MessagingAttributes() {
    }
}
