package io.sam3stream.kafka;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import io.sam3stream.operations.Verdict;
import io.sam3stream.schemas.Topics.DeadLetterHeaders;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * Dead letters in Kafka Connect's format: the original key, value and headers, plus Connect's
 * {@code __connect.errors.*} context headers, so Connect-aware tooling can inspect and replay them.
 */
public final class DeadLetters {

    private DeadLetters() {}

    /** The dead letter of {@code record}, which failed in {@code stage} with {@code error}. */
    public static Outcome of(ConsumerRecord<byte[], byte[]> record, String dlqTopic, String stage, Class<?> failedIn,
            Throwable error) {
        Headers headers = new RecordHeaders();
        for (Header h : record.headers()) {
            headers.add(h);
        }
        headers.add(DeadLetterHeaders.TOPIC, utf8(record.topic()));
        headers.add(DeadLetterHeaders.PARTITION, utf8(Integer.toString(record.partition())));
        headers.add(DeadLetterHeaders.OFFSET, utf8(Long.toString(record.offset())));
        headers.add(DeadLetterHeaders.STAGE, utf8(stage));
        headers.add(DeadLetterHeaders.EXECUTING_CLASS, utf8(failedIn.getName()));
        headers.add(DeadLetterHeaders.EXCEPTION_CLASS_NAME, utf8(error.getClass().getName()));
        headers.add(DeadLetterHeaders.EXCEPTION_MESSAGE, utf8(String.valueOf(error.getMessage())));
        StringWriter trace = new StringWriter();
        error.printStackTrace(new PrintWriter(trace));
        headers.add(DeadLetterHeaders.EXCEPTION_STACKTRACE, utf8(trace.toString()));
        return new Outcome(dlqTopic, null, record.key(), record.value(), headers, Verdict.deadLetterOf(error));
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
