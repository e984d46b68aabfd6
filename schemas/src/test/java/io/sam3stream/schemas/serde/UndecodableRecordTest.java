package io.sam3stream.schemas.serde;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.sam3stream.avro.SegmentationRequest;
import io.sam3stream.avro.SegmentationResult;
import io.sam3stream.schemas.Topics;
import io.sam3stream.schemas.registry.SchemaRegistryClient;
import io.sam3stream.schemas.registry.SchemaRegistryException;
import io.sam3stream.schemas.registry.embedded.EmbeddedSchemaRegistry;
import io.sam3stream.schemas.serde.UndecodableRecordException.Reason;
import io.sam3stream.schemas.testing.SampleRecords;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Every way a record's bytes can be wrong is reported with its own reason; a missing registry is not one. */
class UndecodableRecordTest {

    private static EmbeddedSchemaRegistry registry;
    private static SchemaRegistryClient client;
    private static SpecificAvroDeserializer<SegmentationRequest> requests;
    private static byte[] validRecord;

    @BeforeAll
    static void startRegistry() throws IOException {
        registry = EmbeddedSchemaRegistry.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        client = SchemaRegistryClient.builder(registry.url()).build();
        requests = new SpecificAvroDeserializer<>(client, SegmentationRequest.class);
        validRecord = new AvroSerializer<SegmentationRequest>(client, true)
                .serialize(Topics.REQUESTS, SampleRecords.request());
    }

    @AfterAll
    static void stopRegistry() {
        registry.close();
    }

    @Test
    void recordShorterThanTheHeaderIsTruncatedHeader() {
        assertReason(Reason.TRUNCATED_HEADER, new byte[0]);
        assertReason(Reason.TRUNCATED_HEADER, Arrays.copyOf(validRecord, 4));
    }

    @Test
    void recordNotStartingWithZeroIsWrongMagicByte() {
        byte[] record = validRecord.clone();
        record[0] = 1;
        assertReason(Reason.WRONG_MAGIC_BYTE, record);
        assertReason(Reason.WRONG_MAGIC_BYTE, "{\"request_id\": \"plain JSON\"}".getBytes());
    }

    @Test
    void idTheRegistryDoesNotKnowIsUnknownSchemaId() {
        byte[] record = validRecord.clone();
        record[1] = 0x7f;
        assertReason(Reason.UNKNOWN_SCHEMA_ID, record);
    }

    @Test
    void bodyCutShortIsTruncatedBody() {
        // cut inside the prompts array, and inside the image bytes (whose length prefix promises more)
        assertReason(Reason.TRUNCATED_BODY, Arrays.copyOf(validRecord, validRecord.length - 20));
        assertReason(Reason.TRUNCATED_BODY, Arrays.copyOf(validRecord, 5 + 1 + 8 + 1 + 3));
    }

    @Test
    void bytesLeftOverAfterTheValueAreMalformedBody() {
        assertReason(Reason.MALFORMED_BODY, Arrays.copyOf(validRecord, validRecord.length + 3));
    }

    @Test
    void unionBranchOutOfRangeIsMalformedBody() {
        byte[] record = validRecord.clone();
        // byte 5 + 1 + 8 is the request_id string; the next byte is the union index of 'image' (zig-zag 2 = 1)
        int imageUnionIndex = 5 + 1 + "req-0001".length();
        assertEquals(2, record[imageUnionIndex]);
        record[imageUnionIndex] = 10;
        assertReason(Reason.MALFORMED_BODY, record);
    }

    @Test
    void stringThatIsNotUtf8IsMalformedBodyNotAReplacementCharacter() {
        // request_id "req-0001" starts at byte 5 + 1; "00" becomes a two-byte sequence, valid and then not
        int id = 5 + 1;
        byte[] valid = validRecord.clone();
        valid[id + 4] = (byte) 0xc3;
        valid[id + 5] = (byte) 0xa9;
        assertEquals("req-\u00e901", requests.deserialize(Topics.REQUESTS, valid).getRequestId());
        byte[] broken = valid.clone();
        broken[id + 5] = '(';
        assertReason(Reason.MALFORMED_BODY, broken);
    }

    @Test
    void lengthPrefixBeyondTheRecordIsNotAnAllocation() {
        // a bytes length of about 1 GiB in a 30-byte record must fail as truncated, not allocate a gigabyte
        byte[] header = Arrays.copyOf(validRecord, 5 + 1 + 8 + 1);
        byte[] hugeLength = {(byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, 0x08};
        byte[] record = Arrays.copyOf(header, header.length + hugeLength.length + 10);
        System.arraycopy(hugeLength, 0, record, header.length, hugeLength.length);
        assertReason(Reason.TRUNCATED_BODY, record);
    }

    @Test
    void writerSchemaThatCannotBeResolvedIsIncompatibleSchema() {
        byte[] result = new AvroSerializer<SegmentationResult>(client, true)
                .serialize(Topics.RESULTS, SampleRecords.okResult());
        assertReason(Reason.INCOMPATIBLE_SCHEMA, result);
    }

    @Test
    void unreachableRegistryIsNotAPoisonRecord() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        SchemaRegistryClient nowhere = SchemaRegistryClient
                .builder(URI.create("http://127.0.0.1:" + closedPort))
                .timeout(Duration.ofSeconds(2))
                .build();

        SchemaRegistryException failure = assertThrows(SchemaRegistryException.class,
                () -> new SpecificAvroDeserializer<>(nowhere, SegmentationRequest.class)
                        .deserialize(Topics.REQUESTS, validRecord));
        assertEquals(0, failure.httpStatus());
    }

    private static void assertReason(Reason expected, byte[] record) {
        UndecodableRecordException failure = assertThrows(UndecodableRecordException.class,
                () -> requests.deserialize(Topics.REQUESTS, record));
        assertEquals(expected, failure.reason(), failure.getMessage());
    }
}
