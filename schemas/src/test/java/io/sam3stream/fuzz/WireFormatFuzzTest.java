package io.sam3stream.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.sam3stream.avro.SegmentationRequest;
import io.sam3stream.avro.SegmentationResult;
import io.sam3stream.schemas.Topics;
import io.sam3stream.schemas.registry.SchemaRegistryClient;
import io.sam3stream.schemas.registry.embedded.EmbeddedSchemaRegistry;
import io.sam3stream.schemas.serde.AvroSerializer;
import io.sam3stream.schemas.serde.ConfluentWireFormat;
import io.sam3stream.schemas.serde.GenericAvroDeserializer;
import io.sam3stream.schemas.serde.SpecificAvroDeserializer;
import io.sam3stream.schemas.serde.UndecodableRecordException;
import io.sam3stream.schemas.serde.UndecodableRecordException.Reason;
import io.sam3stream.schemas.testing.SampleRecords;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Arrays;
import org.apache.kafka.common.serialization.Deserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Fuzz targets for the Confluent wire-format deserializers, which read every record from the request and result
 * topics. Property: a record either decodes or is refused with an {@link UndecodableRecordException} (whose
 * reason sends it to the dead-letter topic); no other exception escapes, no record takes longer than
 * {@link #PER_RECORD_DEADLINE}, and no length or count inside a record makes the decoder allocate what it claims.
 * The writer schemas live in an embedded registry on loopback. Seeds: {@code WireFormatFuzzTestInputs/}
 * (whole records, for {@link #anyRecord}, and bodies without header for the others), including the records the
 * fuzzer found claiming arrays far larger than their bytes.
 */
class WireFormatFuzzTest {

    /** Generous for records of a few KB; not JUnit's {@code @Timeout}, which in fuzzing mode bounds the run. */
    private static final Duration PER_RECORD_DEADLINE = Duration.ofSeconds(5);

    private static EmbeddedSchemaRegistry registry;
    private static SpecificAvroDeserializer<SegmentationRequest> requests;
    private static SpecificAvroDeserializer<SegmentationResult> results;
    private static GenericAvroDeserializer generic;
    private static byte[] requestHeader;
    private static byte[] resultHeader;

    @BeforeAll
    static void registerTheSchemas() throws IOException {
        registry = EmbeddedSchemaRegistry.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        SchemaRegistryClient client = SchemaRegistryClient.builder(registry.url()).build();
        requests = new SpecificAvroDeserializer<>(client, SegmentationRequest.class);
        results = new SpecificAvroDeserializer<>(client, SegmentationResult.class);
        generic = new GenericAvroDeserializer(client);
        requestHeader = header(new AvroSerializer<SegmentationRequest>(client, true)
                .serialize(Topics.REQUESTS, SampleRecords.request()));
        resultHeader = header(new AvroSerializer<SegmentationResult>(client, true)
                .serialize(Topics.RESULTS, SampleRecords.okResult()));
    }

    @AfterAll
    static void stopTheRegistry() {
        registry.close();
    }

    /** Header and all: wrong magic bytes, unknown and known schema ids, any body. */
    @FuzzTest
    void anyRecord(byte[] record) {
        deserialize(generic, record);
    }

    /** A body under the request schema's header, read into the generated request class. */
    @FuzzTest
    void requestBody(byte[] body) {
        deserialize(requests, framed(requestHeader, body));
    }

    /** A body under the result schema's header, read into the generated result class. */
    @FuzzTest
    void resultBody(byte[] body) {
        deserialize(results, framed(resultHeader, body));
    }

    // What the fuzzer found, by hand: Avro allocates a collection or string at the size its prefix claims.

    /** A request whose prompts array claims 2^30 items after a 4-byte start: refused, nothing of that size made. */
    @Test
    void refusesAnArrayCountTheBodyCannotHoldWithoutAllocatingIt() {
        byte[] body = {2, 'x', 0, 0, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, 0x08}; // "x", null, null
        assertEquals(Reason.TRUNCATED_BODY, refusalWithoutLargeAllocation(framed(requestHeader, body)).reason());
    }

    /** A request whose request_id claims 2^30 bytes. */
    @Test
    void refusesAStringLengthTheBodyCannotHoldWithoutAllocatingIt() {
        byte[] body = {(byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, 0x08, 'x'};
        assertEquals(Reason.TRUNCATED_BODY, refusalWithoutLargeAllocation(framed(requestHeader, body)).reason());
    }

    private static UndecodableRecordException refusalWithoutLargeAllocation(byte[] record) {
        assertThrows(UndecodableRecordException.class, () -> requests.deserialize(Topics.REQUESTS, record)); // warm
        return AllocationBudget.assertAtMost(8L << 20, () -> assertThrows(UndecodableRecordException.class,
                () -> requests.deserialize(Topics.REQUESTS, record)));
    }

    private static void deserialize(Deserializer<?> deserializer, byte[] record) {
        assertTimeoutPreemptively(PER_RECORD_DEADLINE, () -> AllocationBudget.assertWithinInputBudget(record.length,
                () -> {
                    try {
                        deserializer.deserialize(Topics.REQUESTS, record);
                    } catch (UndecodableRecordException refused) {
                        // the documented refusal, which sends the record to the dead-letter topic
                    }
                }));
    }

    private static byte[] header(byte[] record) {
        return Arrays.copyOf(record, ConfluentWireFormat.HEADER_LENGTH);
    }

    private static byte[] framed(byte[] header, byte[] body) {
        byte[] record = Arrays.copyOf(header, header.length + body.length);
        System.arraycopy(body, 0, record, header.length, body.length);
        return record;
    }
}
