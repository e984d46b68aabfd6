package io.sam3stream.kafka;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.sam3stream.schemas.Topics.ReplyHeaders;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

class ReplyDestinationTest {

    @Test
    void aRequestWithoutReplyHeadersIsAnsweredOnTheResultsTopicPartitionedByKey() {
        ReplyDestination d = ReplyDestination.of(new RecordHeaders(), "sam3.results");
        assertEquals("sam3.results", d.topic());
        assertNull(d.partition());
        assertEquals(0, d.resultHeaders().toArray().length);
    }

    @Test
    void springReplyHeadersNameTopicAndPartitionAndTheCorrelationIdIsEchoed() {
        Headers headers = new RecordHeaders()
                .add(ReplyHeaders.REPLY_TOPIC, "facade.replies".getBytes(StandardCharsets.UTF_8))
                .add(ReplyHeaders.REPLY_PARTITION, new byte[] {0, 0, 1, 2}) // 258, big-endian
                .add(ReplyHeaders.CORRELATION_ID, new byte[] {7, 7});
        ReplyDestination d = ReplyDestination.of(headers, "sam3.results");
        assertEquals("facade.replies", d.topic());
        assertEquals(258, d.partition());
        assertArrayEquals(new byte[] {7, 7}, d.resultHeaders().lastHeader(ReplyHeaders.CORRELATION_ID).value());
        assertEquals(1, d.resultHeaders().toArray().length);
    }

    @Test
    void aReplyPartitionThatIsNotAFourByteIntIsIgnored() {
        Headers headers = new RecordHeaders()
                .add(ReplyHeaders.REPLY_TOPIC, "facade.replies".getBytes(StandardCharsets.UTF_8))
                .add(ReplyHeaders.REPLY_PARTITION, "3".getBytes(StandardCharsets.UTF_8));
        ReplyDestination d = ReplyDestination.of(headers, "sam3.results");
        assertEquals("facade.replies", d.topic());
        assertNull(d.partition());
    }

    @Test
    void aCorrelationIdWithoutReplyTopicIsStillEchoedOnTheResultsTopic() {
        Headers headers = new RecordHeaders().add(ReplyHeaders.CORRELATION_ID, new byte[] {1});
        ReplyDestination d = ReplyDestination.of(headers, "sam3.results");
        assertEquals("sam3.results", d.topic());
        assertArrayEquals(new byte[] {1}, d.resultHeaders().lastHeader(ReplyHeaders.CORRELATION_ID).value());
    }

    @Test
    void aRedirectKeepsTheCorrelationIdButDropsThePartition() {
        ReplyDestination d = new ReplyDestination("gone", 3, new byte[] {5}).redirectedTo("sam3.results");
        assertEquals("sam3.results", d.topic());
        assertNull(d.partition());
        assertArrayEquals(new byte[] {5}, d.correlationId());
    }
}
