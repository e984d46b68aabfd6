package io.sam3stream.schemas.serde;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sam3stream.avro.SegmentationRequest;
import io.sam3stream.schemas.Topics;
import io.sam3stream.schemas.registry.RegistryApi;
import io.sam3stream.schemas.registry.SchemaRegistryClient;
import io.sam3stream.schemas.registry.SchemaRegistryException;
import io.sam3stream.schemas.registry.embedded.EmbeddedSchemaRegistry;
import io.sam3stream.schemas.testing.SampleRecords;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The request schema evolves BACKWARD-compatibly: version 2 adds an optional field. Consumers upgrade first, so
 * a v2 reader meets v1 records; during a rolling upgrade a v1 reader also meets v2 records. Both must read.
 */
class SchemaEvolutionTest {

    private static final String TOPIC = Topics.REQUESTS;

    private EmbeddedSchemaRegistry registry;
    private SchemaRegistryClient client;

    @BeforeEach
    void startRegistry() throws IOException {
        registry = EmbeddedSchemaRegistry.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        client = SchemaRegistryClient.builder(registry.url()).build();
    }

    @AfterEach
    void stopRegistry() {
        registry.close();
    }

    @Test
    void newReaderReadsOldRecordsWithTheNewFieldsDefault() {
        SegmentationRequest v1Record = SampleRecords.request();
        byte[] v1Bytes = new AvroSerializer<SegmentationRequest>(client, true).serialize(TOPIC, v1Record);

        GenericRecord read = new GenericAvroDeserializer(client, requestV2(true)).deserialize(TOPIC, v1Bytes);

        assertEquals(requestV2(true), read.getSchema());
        assertEquals(0, read.get("priority"));
        assertEquals(v1Record.getRequestId(), read.get("request_id").toString());
        assertEquals(v1Record.getPrompts().size(), ((List<?>) read.get("prompts")).size());
    }

    @Test
    void oldReaderReadsNewRecordsIgnoringTheNewField() {
        SegmentationRequest v1Record = SampleRecords.request();
        byte[] v1Bytes = new AvroSerializer<SegmentationRequest>(client, true).serialize(TOPIC, v1Record);
        GenericRecord v2Record = new GenericAvroDeserializer(client, requestV2(true)).deserialize(TOPIC, v1Bytes);
        v2Record.put("priority", 5);

        byte[] v2Bytes = new AvroSerializer<GenericRecord>(client, true).serialize(TOPIC, v2Record);
        SegmentationRequest read =
                new SpecificAvroDeserializer<>(client, SegmentationRequest.class).deserialize(TOPIC, v2Bytes);

        assertNotEquals(ConfluentWireFormat.schemaId(v1Bytes), ConfluentWireFormat.schemaId(v2Bytes));
        assertEquals(2, client.latestVersion(Topics.valueSubject(TOPIC)).version());
        assertEquals(v1Record, read);
    }

    @Test
    void registryRefusesAFieldAddedWithoutDefault() {
        new AvroSerializer<SegmentationRequest>(client, true).serialize(TOPIC, SampleRecords.request());
        Schema breaking = requestV2(false);

        assertFalse(client.isCompatibleWithLatest(Topics.valueSubject(TOPIC), breaking));
        assertTrue(client.isCompatibleWithLatest(Topics.valueSubject(TOPIC), requestV2(true)));
        SchemaRegistryException refused = assertThrows(SchemaRegistryException.class,
                () -> client.register(Topics.valueSubject(TOPIC), breaking));
        assertEquals(409, refused.httpStatus());
        assertEquals(RegistryApi.INCOMPATIBLE_SCHEMA, refused.errorCode());
    }

    @Test
    void serializerReportsARefusedSchemaAsASerializationFailure() {
        new AvroSerializer<SegmentationRequest>(client, true).serialize(TOPIC, SampleRecords.request());
        GenericRecord breakingRecord = new GenericData.Record(requestV2(false));

        SerializationException failure = assertThrows(SerializationException.class,
                () -> new AvroSerializer<GenericRecord>(client, true).serialize(TOPIC, breakingRecord));
        assertInstanceOf(SchemaRegistryException.class, failure.getCause());
    }

    /** SegmentationRequest plus an int field {@code priority}, with or without a default. */
    private static Schema requestV2(boolean withDefault) {
        ObjectMapper json = new ObjectMapper();
        try {
            ObjectNode schema = (ObjectNode) json.readTree(SegmentationRequest.getClassSchema().toString());
            ObjectNode priority = ((ArrayNode) schema.get("fields")).addObject()
                    .put("name", "priority")
                    .put("type", "int")
                    .put("doc", "Larger is served first.");
            if (withDefault) {
                priority.put("default", 0);
            }
            return new Schema.Parser().parse(schema.toString());
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }
}
