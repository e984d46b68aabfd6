package io.sam3stream.schemas.registry.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sam3stream.avro.SegmentationRequest;
import io.sam3stream.schemas.SharedTypes;
import io.sam3stream.schemas.Topics;
import io.sam3stream.schemas.registry.SchemaRegistryClient;
import io.sam3stream.schemas.serde.AvroSerializer;
import io.sam3stream.schemas.serde.ConfluentWireFormat;
import io.sam3stream.schemas.serde.SpecificAvroDeserializer;
import io.sam3stream.schemas.testing.SampleRecords;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.generic.IndexedRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The project registers its schemas in the form the {@code .avsc} files write them, so a producer in any language
 * that registers the files as Confluent's clients do (each common type under its full name, then each top-level
 * file with references to those subjects) gets exactly the ids the Java serializer writes, and no new version.
 */
class SchemasAsWrittenTest extends InMemoryRegistryTest {

    private static final Path AVRO = Path.of("src/main/avro");
    private static final Path COMMON = AVRO.resolve("common");
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Each top-level file, the topic its records travel on, and a record of it. */
    private static final Map<String, Map.Entry<String, IndexedRecord>> TOP_LEVEL = Map.of(
            "SegmentationRequest.avsc", Map.entry(Topics.REQUESTS, SampleRecords.request()),
            "SegmentationResult.avsc", Map.entry(Topics.RESULTS, SampleRecords.okResult()),
            "WorkerStatus.avsc", Map.entry(Topics.WORKERS, SampleRecords.workerStatus()));

    private SchemaRegistryClient client;

    @BeforeEach
    void startClient() {
        client = SchemaRegistryClient.builder(registry.url()).build();
    }

    @Test
    void everyTopLevelFileIsCovered() throws IOException {
        try (Stream<Path> files = Files.list(AVRO)) {
            assertEquals(new TreeSet<>(TOP_LEVEL.keySet()), new TreeSet<>(files
                    .filter(Files::isRegularFile).map(p -> p.getFileName().toString()).toList()));
        }
        assertEquals(commonTypeNames(), SharedTypes.ALL.stream().map(Schema::getFullName).sorted().toList());
    }

    @Test
    void theFilesRegisteredAsWrittenGetTheIdsTheSerializerWrites() throws IOException {
        Map<String, Integer> serializerIds = serializeOneRecordEach();

        Map<String, Integer> fileIds = registerTheFiles();

        assertEquals(serializerIds, fileIds);
        for (String subject : fileIds.keySet()) {
            assertEquals("[1]", http.get("/subjects/" + subject + "/versions").body().toString(), subject);
        }
        for (JsonNode version : http.get("/schemas").body()) {
            assertFalse(version.get("schema").asText().contains("avro.java"), version.toString());
        }
    }

    @Test
    void theSerializerFindsTheVersionsAProducerOfTheFilesRegistered() throws IOException {
        Map<String, Integer> fileIds = registerTheFiles();

        Map<String, Integer> serializerIds = serializeOneRecordEach();

        assertEquals(fileIds, serializerIds);
        assertEquals(fileIds.size(), http.get("/schemas").body().size(), "no version beyond the files'");
    }

    @Test
    void withoutAutoRegistrationTheSerializerLooksUpTheFilesVersions() throws IOException {
        Map<String, Integer> fileIds = registerTheFiles();
        AvroSerializer<IndexedRecord> lookingUp = new AvroSerializer<>(client, false);

        byte[] bytes = lookingUp.serialize(Topics.REQUESTS, SampleRecords.request());

        assertEquals(fileIds.get(Topics.valueSubject(Topics.REQUESTS)), ConfluentWireFormat.schemaId(bytes));
    }

    @Test
    void aTypeThatOnlySharesASharedTypesNameStaysInline() {
        Schema impostor = new Schema.Parser().parse("{\"type\":\"record\",\"name\":\"Holder\",\"fields\":["
                + "{\"name\":\"b\",\"type\":{\"type\":\"record\",\"name\":\"Box\",\"namespace\":"
                + "\"io.sam3stream.avro\",\"fields\":[{\"name\":\"side\",\"type\":\"int\"}]}}]}");
        GenericRecord box = new GenericData.Record(impostor.getField("b").schema());
        box.put("side", 3);
        GenericRecord holder = new GenericData.Record(impostor);
        holder.put("b", box);

        new AvroSerializer<GenericRecord>(client, true).serialize("holders", holder);

        JsonNode registered = http.get("/subjects/holders-value/versions/1").body();
        assertFalse(registered.has("references"), registered.toString());
        assertEquals(impostor, new Schema.Parser().parse(registered.get("schema").asText()));
        assertEquals("[\"holders-value\"]", http.get("/subjects").body().toString());
    }

    @Test
    void recordsWrittenUnderTheEarlierGeneratedFormStillRead() throws IOException {
        // what the serializer registered before: the generated class's schema, Java properties and all
        SegmentationRequest record = SampleRecords.request();
        String subject = Topics.valueSubject(Topics.REQUESTS);
        int oldId = client.register(subject, SegmentationRequest.getClassSchema());
        byte[] oldBytes = wireBytes(oldId, record);

        byte[] newBytes = new AvroSerializer<SegmentationRequest>(client, true).serialize(Topics.REQUESTS, record);

        assertNotEquals(oldId, ConfluentWireFormat.schemaId(newBytes));
        assertEquals("[1,2]", http.get("/subjects/" + subject + "/versions").body().toString());
        // a reader that never saw either schema resolves both ids, the new one through its references
        SchemaRegistryClient fresh = SchemaRegistryClient.builder(registry.url()).build();
        SpecificAvroDeserializer<SegmentationRequest> reader =
                new SpecificAvroDeserializer<>(fresh, SegmentationRequest.class);
        assertEquals(record, reader.deserialize(Topics.REQUESTS, oldBytes));
        assertEquals(record, reader.deserialize(Topics.REQUESTS, newBytes));
    }

    /** The id under each subject of the serializer's record of each top-level file. */
    private Map<String, Integer> serializeOneRecordEach() {
        AvroSerializer<IndexedRecord> serializer = new AvroSerializer<>(client, true);
        Map<String, Integer> ids = new TreeMap<>();
        TOP_LEVEL.values().forEach(e -> ids.put(Topics.valueSubject(e.getKey()),
                ConfluentWireFormat.schemaId(serializer.serialize(e.getKey(), e.getValue()))));
        for (String type : commonTypeNames()) {
            ids.put(type, http.get("/subjects/" + type + "/versions/latest").body().get("id").asInt());
        }
        return ids;
    }

    /**
     * Registers the files over plain HTTP as a Confluent client would: each common type under its full name,
     * then each top-level file's text unchanged, with a reference (sorted by name) for every common type it names.
     */
    private Map<String, Integer> registerTheFiles() throws IOException {
        Map<String, Integer> ids = new TreeMap<>();
        List<String> commonNames = new ArrayList<>();
        for (Path file : commonFiles()) {
            String text = Files.readString(file);
            String name = fullName(text);
            commonNames.add(name);
            ids.put(name, registered(http.post("/subjects/" + name + "/versions", body(text, List.of()))));
        }
        for (var entry : TOP_LEVEL.entrySet()) {
            String text = Files.readString(AVRO.resolve(entry.getKey()));
            List<String> named = commonNames.stream().filter(n -> text.contains("\"" + n + "\"")).sorted().toList();
            String subject = Topics.valueSubject(entry.getValue().getKey());
            ids.put(subject, registered(http.post("/subjects/" + subject + "/versions", body(text, named))));
        }
        return ids;
    }

    private static String body(String schemaText, List<String> referencedTypes) {
        ObjectNode body = JSON.createObjectNode().put("schema", schemaText);
        ArrayNode references = body.putArray("references");
        referencedTypes.forEach(n -> references.addObject().put("name", n).put("subject", n).put("version", 1));
        return body.toString();
    }

    private static int registered(RegistryHttp.Reply reply) {
        assertEquals(200, reply.status(), reply.body().toString());
        return reply.body().get("id").asInt();
    }

    private static List<Path> commonFiles() throws IOException {
        try (Stream<Path> files = Files.list(COMMON)) {
            return files.filter(p -> p.toString().endsWith(".avsc")).sorted().toList();
        }
    }

    private static List<String> commonTypeNames() {
        try {
            List<String> names = new ArrayList<>();
            for (Path file : commonFiles()) {
                names.add(fullName(Files.readString(file)));
            }
            return names.stream().sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String fullName(String avsc) throws IOException {
        JsonNode schema = JSON.readTree(avsc);
        return schema.get("namespace").asText() + "." + schema.get("name").asText();
    }

    private static byte[] wireBytes(int schemaId, SegmentationRequest record) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ConfluentWireFormat.writeHeader(out, schemaId);
        BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
        new SpecificDatumWriter<>(SegmentationRequest.class).write(record, encoder);
        encoder.flush();
        return out.toByteArray();
    }
}
