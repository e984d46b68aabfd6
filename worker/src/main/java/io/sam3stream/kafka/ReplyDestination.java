package io.sam3stream.kafka;

import io.sam3stream.schemas.Topics.ReplyHeaders;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * Where a request's result goes: the topic and partition the requester named in Spring Kafka's reply headers
 * (so Spring's {@code ReplyingKafkaTemplate} and the HTTP facade get their replies on the partition they listen
 * to), or else the results topic, partitioned by the result's key.
 *
 * @param topic         destination topic
 * @param partition     destination partition, or null to partition by key
 * @param correlationId the requester's {@code kafka_correlationId}, echoed on the result; null when absent
 */
public record ReplyDestination(String topic, Integer partition, byte[] correlationId) {

    /**
     * The destination a request's headers ask for. A reply partition header that is not Spring's 4-byte big-endian
     * int is ignored (the result is then partitioned by key on the reply topic).
     */
    public static ReplyDestination of(Headers requestHeaders, String resultsTopic) {
        Header topic = requestHeaders.lastHeader(ReplyHeaders.REPLY_TOPIC);
        Header partition = requestHeaders.lastHeader(ReplyHeaders.REPLY_PARTITION);
        Header correlation = requestHeaders.lastHeader(ReplyHeaders.CORRELATION_ID);
        byte[] correlationId = correlation == null ? null : correlation.value();
        if (topic == null || topic.value() == null || topic.value().length == 0) {
            return new ReplyDestination(resultsTopic, null, correlationId);
        }
        Integer replyPartition = partition != null && partition.value() != null
                && partition.value().length == Integer.BYTES ? ByteBuffer.wrap(partition.value()).getInt() : null;
        return new ReplyDestination(new String(topic.value(), StandardCharsets.UTF_8),
                replyPartition != null && replyPartition >= 0 ? replyPartition : null, correlationId);
    }

    /**
     * What is wrong with the request's reply partition header, or null: present but not Spring's 4-byte big-endian
     * int, or negative. Such a header is ignored for routing, and the result says so ({@link #of}).
     */
    public static String partitionHeaderProblem(Headers requestHeaders) {
        Header topic = requestHeaders.lastHeader(ReplyHeaders.REPLY_TOPIC);
        Header partition = requestHeaders.lastHeader(ReplyHeaders.REPLY_PARTITION);
        if (topic == null || topic.value() == null || topic.value().length == 0 || partition == null) {
            return null;
        }
        byte[] value = partition.value();
        if (value == null || value.length != Integer.BYTES) {
            return ReplyHeaders.REPLY_PARTITION + " is " + (value == null ? 0 : value.length)
                    + " bytes, not a 4-byte big-endian int";
        }
        int p = ByteBuffer.wrap(value).getInt();
        return p < 0 ? ReplyHeaders.REPLY_PARTITION + " is " + p + ", a negative partition" : null;
    }

    /** The same destination on another topic, partitioned by key (a reply topic that does not exist). */
    public ReplyDestination redirectedTo(String otherTopic) {
        return new ReplyDestination(otherTopic, null, correlationId);
    }

    /** The headers of the result: the correlation id, when the request had one. */
    public Headers resultHeaders() {
        RecordHeaders headers = new RecordHeaders();
        if (correlationId != null) {
            headers.add(ReplyHeaders.CORRELATION_ID, correlationId);
        }
        return headers;
    }
}
