package io.sam3stream.kafka;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * Dead letters in Kafka Connect's format: the original key, value and headers, plus Connect's
 * {@code __connect.errors.*} context headers, so Connect-aware tooling can inspect and replay them.
 */
public final class DeadLetters {

    public static final String PREFIX = "__connect.errors.";
    public static final String TOPIC = PREFIX + "topic";
    public static final String PARTITION = PREFIX + "partition";
    public static final String OFFSET = PREFIX + "offset";
    public static final String EXCEPTION_CLASS = PREFIX + "exception.class.name";
    public static final String EXCEPTION_MESSAGE = PREFIX + "exception.message";
    public static final String EXCEPTION_STACKTRACE = PREFIX + "exception.stacktrace";
    public static final String STAGE = PREFIX + "stage";

    /** Connect's name for the stage that turns bytes into a record. */
    public static final String STAGE_VALUE_CONVERTER = "VALUE_CONVERTER";

    private DeadLetters() {}

    /** The dead letter of {@code record}, which failed in {@code stage} with {@code error}. */
    public static Outcome of(ConsumerRecord<byte[], byte[]> record, String dlqTopic, String stage, Throwable error) {
        Headers headers = new RecordHeaders();
        for (Header h : record.headers()) {
            headers.add(h);
        }
        headers.add(TOPIC, utf8(record.topic()));
        headers.add(PARTITION, utf8(Integer.toString(record.partition())));
        headers.add(OFFSET, utf8(Long.toString(record.offset())));
        headers.add(STAGE, utf8(stage));
        headers.add(EXCEPTION_CLASS, utf8(error.getClass().getName()));
        headers.add(EXCEPTION_MESSAGE, utf8(String.valueOf(error.getMessage())));
        StringWriter trace = new StringWriter();
        error.printStackTrace(new PrintWriter(trace));
        headers.add(EXCEPTION_STACKTRACE, utf8(trace.toString()));
        return new Outcome(dlqTopic, null, record.key(), record.value(), headers, true);
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
