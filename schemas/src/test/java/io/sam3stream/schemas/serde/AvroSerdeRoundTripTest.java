package io.sam3stream.schemas.serde;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.sam3stream.avro.SegmentationRequest;
import io.sam3stream.avro.SegmentationResult;
import io.sam3stream.schemas.Topics;
import io.sam3stream.schemas.registry.SchemaRegistryClient;
import io.sam3stream.schemas.registry.embedded.EmbeddedSchemaRegistry;
import io.sam3stream.schemas.testing.SampleRecords;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.Map;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class AvroSerdeRoundTripTest {

    private static EmbeddedSchemaRegistry registry;
    private static SchemaRegistryClient client;

    @BeforeAll
    static void startRegistry() throws IOException {
        registry = EmbeddedSchemaRegistry.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        client = SchemaRegistryClient.builder(registry.url()).build();
    }

    @AfterAll
    static void stopRegistry() {
        registry.close();
    }

    @Test
    void requestSurvivesTheWireWithEveryField() {
        SegmentationRequest request = SampleRecords.request();

        byte[] bytes = new AvroSerializer<SegmentationRequest>(client, true).serialize(Topics.REQUESTS, request);
        SegmentationRequest read =
                new SpecificAvroDeserializer<>(client, SegmentationRequest.class).deserialize(Topics.REQUESTS, bytes);

        assertEquals(request, read);
        assertEquals(request.getDeadline(), read.getDeadline());
    }

    @Test
    void resultsSurviveTheWireWithEveryMaskEncoding() {
        AvroSerializer<SegmentationResult> serializer = new AvroSerializer<>(client, true);
        SpecificAvroDeserializer<SegmentationResult> deserializer =
                new SpecificAvroDeserializer<>(client, SegmentationResult.class);

        for (SegmentationResult result : new SegmentationResult[] {
                SampleRecords.okResult(), SampleRecords.errorResult()}) {
            byte[] bytes = serializer.serialize(Topics.RESULTS, result);
            assertEquals(result, deserializer.deserialize(Topics.RESULTS, bytes));
        }
    }

    @Test
    void headerIsMagicByteThenBigEndianIdOfTheTopicValueSubject() throws IOException {
        SegmentationRequest request = SampleRecords.request();

        byte[] bytes = new AvroSerializer<SegmentationRequest>(client, true).serialize(Topics.REQUESTS, request);

        int id = client.latestVersion("sam3.requests-value").id();
        byte[] expectedHeader = {0, (byte) (id >>> 24), (byte) (id >>> 16), (byte) (id >>> 8), (byte) id};
        assertArrayEquals(expectedHeader, Arrays.copyOf(bytes, 5));
        assertArrayEquals(plainAvroBinary(request), Arrays.copyOfRange(bytes, 5, bytes.length));
    }

    private static byte[] plainAvroBinary(SegmentationRequest request) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
        new SpecificDatumWriter<>(SegmentationRequest.class).write(request, encoder);
        encoder.flush();
        return out.toByteArray();
    }

    @Test
    void kafkaConfiguredSerdesInteroperateWithConstructedOnes() {
        Map<String, Object> configs = Map.of(
                AvroSerdeConfig.SCHEMA_REGISTRY_URL, registry.url().toString(),
                AvroSerdeConfig.SPECIFIC_AVRO_VALUE_TYPE, SegmentationResult.class.getName());
        AvroSerializer<SegmentationResult> serializer = new AvroSerializer<>();
        serializer.configure(configs, false);
        SpecificAvroDeserializer<SegmentationResult> deserializer = new SpecificAvroDeserializer<>();
        deserializer.configure(configs, false);
        SegmentationResult result = SampleRecords.okResult();

        byte[] bytes = serializer.serialize(Topics.RESULTS, result);

        assertEquals(result, deserializer.deserialize(Topics.RESULTS, bytes));
        assertEquals(result, new SpecificAvroDeserializer<>(client, SegmentationResult.class)
                .deserialize(Topics.RESULTS, bytes));
    }

    @Test
    void genericReaderSeesTheWriterSchemaFields() {
        byte[] bytes = new AvroSerializer<SegmentationResult>(client, true)
                .serialize(Topics.RESULTS, SampleRecords.okResult());

        GenericRecord read = new GenericAvroDeserializer(client).deserialize(Topics.RESULTS, bytes);

        assertEquals("SegmentationResult", read.getSchema().getName());
        assertEquals("req-0001", read.get("request_id").toString());
        assertEquals(1920, read.get("width"));
    }

    @Test
    void nullIsATombstoneBothWays() {
        assertNull(new AvroSerializer<SegmentationRequest>(client, true).serialize(Topics.REQUESTS, null));
        assertNull(new SpecificAvroDeserializer<>(client, SegmentationRequest.class)
                .deserialize(Topics.REQUESTS, null));
    }
}
