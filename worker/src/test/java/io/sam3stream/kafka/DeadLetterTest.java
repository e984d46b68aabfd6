package io.sam3stream.kafka;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sam3stream.avro.SegmentationResult;
import io.sam3stream.avro.Status;
import io.sam3stream.schemas.Topics.DeadLetterHeaders;
import io.sam3stream.schemas.serde.SpecificAvroDeserializer;
import io.sam3stream.schemas.serde.UndecodableRecordException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(KafkaTestStack.class)
class DeadLetterTest {

    private static final Duration RESULTS_TIMEOUT = Duration.ofSeconds(60);

    private static RunningWorker worker;

    @BeforeAll
    static void startWorker() throws Exception {
        worker = RunningWorker.start(KafkaTestStack.workerEnvironment("dlq"));
    }

    @AfterAll
    static void stopWorker() {
        worker.close();
    }

    /** A poison record: what was sent, and why it cannot be read. */
    private record Poison(String key, byte[] value, UndecodableRecordException.Reason reason) {}

    @Test
    void undecodableRecordsLandInTheDeadLetterTopicWithConnectHeadersAndTheRecordsAroundThemAreAnswered() {
        WorkerConfig config = worker.config();
        try (TestClients.Requests requests = new TestClients.Requests(config.requestsTopic())) {
            byte[] valid = requests.encode(TestRequests.request("template", TestRequests.goldenImage(), "cat").build());
            byte[] unknownId = valid.clone();
            unknownId[1] = 0x7f; // schema id 0x7f0000xx: never registered
            List<Poison> poisons = List.of(
                    new Poison("garbage", "{\"not\": \"avro\"}".getBytes(StandardCharsets.UTF_8),
                            UndecodableRecordException.Reason.WRONG_MAGIC_BYTE),
                    new Poison("wrong-magic", withFirstByte(valid, (byte) 1),
                            UndecodableRecordException.Reason.WRONG_MAGIC_BYTE),
                    new Poison("unknown-schema", unknownId, UndecodableRecordException.Reason.UNKNOWN_SCHEMA_ID),
                    new Poison("truncated", Arrays.copyOf(valid, valid.length / 2),
                            UndecodableRecordException.Reason.TRUNCATED_BODY),
                    new Poison("header-only", new byte[] {0, 0}, UndecodableRecordException.Reason.TRUNCATED_HEADER),
                    new Poison("tombstone", null, UndecodableRecordException.Reason.TRUNCATED_HEADER));

            requests.send(TestRequests.request("before", TestRequests.goldenImage(), "cat").build());
            long[] offsets = new long[poisons.size()];
            for (int i = 0; i < poisons.size(); i++) {
                Poison p = poisons.get(i);
                RecordHeaders headers = new RecordHeaders();
                headers.add("origin", "test".getBytes(StandardCharsets.UTF_8));
                offsets[i] = requests.sendRaw(p.key().getBytes(StandardCharsets.UTF_8), p.value(), headers).offset();
            }
            requests.send(TestRequests.request("after", TestRequests.goldenImage(), "cat").build());

            List<ConsumerRecord<byte[], byte[]>> dead =
                    TestClients.readCommitted(config.deadLetterTopic(), poisons.size(), RESULTS_TIMEOUT);
            assertEquals(poisons.size(), dead.size());
            for (int i = 0; i < poisons.size(); i++) {
                Poison p = poisons.get(i);
                ConsumerRecord<byte[], byte[]> d = dead.get(i);
                assertEquals(p.key(), new String(d.key(), StandardCharsets.UTF_8));
                assertArrayEquals(p.value(), d.value(), "the dead letter keeps the original bytes");
                assertEquals("test", header(d, "origin"), "the original headers are kept");
                assertEquals(config.requestsTopic(), header(d, DeadLetterHeaders.TOPIC));
                assertEquals("0", header(d, DeadLetterHeaders.PARTITION));
                assertEquals(Long.toString(offsets[i]), header(d, DeadLetterHeaders.OFFSET));
                assertEquals(DeadLetterHeaders.STAGE_VALUE_CONVERTER, header(d, DeadLetterHeaders.STAGE));
                assertEquals(SpecificAvroDeserializer.class.getName(), header(d, DeadLetterHeaders.EXECUTING_CLASS));
                assertEquals(UndecodableRecordException.class.getName(),
                        header(d, DeadLetterHeaders.EXCEPTION_CLASS_NAME));
                assertTrue(header(d, DeadLetterHeaders.EXCEPTION_MESSAGE).startsWith(p.reason().name()),
                        header(d, DeadLetterHeaders.EXCEPTION_MESSAGE));
                assertTrue(header(d, DeadLetterHeaders.EXCEPTION_STACKTRACE).contains("UndecodableRecordException"));
            }

            Map<String, SegmentationResult> results = TestRequests.byRequestId(TestRequests.results(
                    TestClients.readCommitted(config.resultsTopic(), 2, RESULTS_TIMEOUT)));
            assertEquals(List.of("after", "before"), results.keySet().stream().sorted().toList());
            results.values().forEach(r -> assertEquals(Status.OK, r.getStatus(), r.toString()));
        }
    }

    private static byte[] withFirstByte(byte[] record, byte first) {
        byte[] copy = record.clone();
        copy[0] = first;
        return copy;
    }

    private static String header(ConsumerRecord<byte[], byte[]> record, String name) {
        return new String(record.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
    }
}
