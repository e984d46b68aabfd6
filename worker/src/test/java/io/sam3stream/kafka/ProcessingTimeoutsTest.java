package io.sam3stream.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class ProcessingTimeoutsTest {

    @Test
    void aSlowDeviceStretchesTheDrainAndThePollIntervalPastKafkasDefaults() {
        ProcessingTimeouts t = new ProcessingTimeouts(Duration.ofSeconds(60), Duration.ofSeconds(100), 3);
        assertEquals(Duration.ofSeconds(2 * 3 * 60 + 30), t.drain());
        assertEquals(Duration.ofSeconds(390 + 30), t.maxPollInterval());
        assertEquals(Duration.ofSeconds(150), t.session());
    }

    @Test
    void aFastDeviceKeepsKafkasDefaultsAsLowerBounds() {
        ProcessingTimeouts t = new ProcessingTimeouts(Duration.ofMillis(50), Duration.ofSeconds(5), 3);
        assertEquals(Duration.ofMillis(300 + 30_000), t.drain());
        assertEquals(Duration.ofMinutes(5), t.maxPollInterval());
        assertEquals(Duration.ofSeconds(45), t.session());
    }

    @Test
    void theSessionNeverExceedsTheBrokersDefaultMaximum() {
        ProcessingTimeouts t = new ProcessingTimeouts(Duration.ofSeconds(60), Duration.ofMinutes(40), 3);
        assertEquals(Duration.ofMinutes(30), t.session());
    }

    @Test
    void theTransactionTimeoutDoesNotGrowWithTheForwardBecauseNoTransactionWaitsForOne() {
        assertEquals(Duration.ofMinutes(1),
                new ProcessingTimeouts(Duration.ofMinutes(5), Duration.ofMinutes(1), 3).transaction());
    }

    @Test
    void clientPropertiesCarryTheTimeoutsAndOneMessageSizeAndTheOperatorHasTheLastWord() {
        Properties overrides = new Properties();
        overrides.put("session.timeout.ms", "12345");
        ClientProperties clients = new ClientProperties("broker:9092", 16 << 20, overrides);
        ProcessingTimeouts t = new ProcessingTimeouts(Duration.ofSeconds(60), Duration.ofSeconds(100), 3);

        Properties consumer = clients.consumer("group", "worker-1", t);
        assertEquals("420000", consumer.get("max.poll.interval.ms"));
        assertEquals("12345", consumer.get("session.timeout.ms"));
        assertEquals("3", consumer.get("max.poll.records"));
        assertEquals("worker-1", consumer.get("group.instance.id"));
        assertEquals("read_committed", consumer.get("isolation.level"));
        assertEquals(Integer.toString(16 << 20), consumer.get("max.partition.fetch.bytes"));
        assertEquals(Integer.toString(50 << 20), consumer.get("fetch.max.bytes"));

        Properties producer = clients.transactionalProducer("sam3-worker-1", t);
        assertEquals(Integer.toString(16 << 20), producer.get("max.request.size"));
        assertEquals("60000", producer.get("transaction.timeout.ms"));
        assertEquals("sam3-worker-1", producer.get("transactional.id"));
    }

    @Test
    void aMessageLimitAboveTheFetchDefaultRaisesTheFetchAndBufferSizes() {
        ClientProperties clients = new ClientProperties("broker:9092", 64 << 20, new Properties());
        ProcessingTimeouts t = new ProcessingTimeouts(Duration.ofSeconds(1), Duration.ofSeconds(1), 3);
        assertEquals(Integer.toString(64 << 20), clients.consumer("g", "w", t).get("fetch.max.bytes"));
        assertEquals(Long.toString(128L << 20), clients.producer().get("buffer.memory"));
    }
}
