package io.sam3stream.schemas.registry.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sam3stream.schemas.registry.RegistryApi;
import io.sam3stream.schemas.registry.SchemaRegistryClient;
import org.apache.avro.Schema;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Schemas that name Avro types registered under another subject, through Confluent's {@code references}. */
class RegistryReferencesTest extends InMemoryRegistryTest {

    private static final String POINT = "{\"type\":\"record\",\"name\":\"Point\",\"namespace\":\"t\","
            + "\"fields\":[{\"name\":\"x\",\"type\":\"int\"}]}";
    /** Names t.Point without defining it. */
    private static final String SHAPE = "{\"type\":\"record\",\"name\":\"Shape\",\"namespace\":\"t\","
            + "\"fields\":[{\"name\":\"p\",\"type\":\"t.Point\"}]}";
    private static final String POINT_REFERENCE = "[{\"name\":\"t.Point\",\"subject\":\"t.Point\",\"version\":1}]";
    private static final ObjectMapper JSON = new ObjectMapper();

    private int shapeId;

    @BeforeEach
    void registerPointAndShape() {
        assertEquals(1, registered(http.postSchema("/subjects/t.Point/versions", POINT)));
        shapeId = registered(http.post("/subjects/shape-value/versions", body(SHAPE, POINT_REFERENCE)));
    }

    @Test
    void aReferencingSchemaIsServedWithItsReferencesAndResolvesForClients() {
        var byId = http.get("/schemas/ids/" + shapeId).body();
        var version = http.get("/subjects/shape-value/versions/1").body();

        assertEquals(2, shapeId);
        assertEquals(POINT_REFERENCE, byId.get("references").toString());
        assertFalse(byId.get("schema").asText().contains("\"x\""), "Point is named, not inlined: " + byId);
        assertEquals(POINT_REFERENCE, version.get("references").toString());
        assertFalse(http.get("/schemas/ids/1").body().has("references"));
        Schema resolved = SchemaRegistryClient.builder(registry.url()).build().schemaById(shapeId);
        assertEquals(Schema.Type.INT, resolved.getField("p").schema().getField("x").schema().getType());
    }

    @Test
    void theSameTextAndReferencesShareAnIdAcrossSubjectsAndLookUps() {
        assertEquals(shapeId, registered(http.post("/subjects/other-value/versions", body(SHAPE, POINT_REFERENCE))));
        assertEquals(1, http.post("/subjects/shape-value", body(SHAPE, POINT_REFERENCE)).body().get("version").asInt());
        assertTrue(http.post("/compatibility/subjects/shape-value/versions/latest", body(SHAPE, POINT_REFERENCE))
                .body().get("is_compatible").asBoolean());
    }

    @Test
    void unresolvableReferencesAreInvalidSchemas() {
        assertError(422, RegistryApi.INVALID_SCHEMA, http.postSchema("/subjects/x-value/versions", SHAPE));
        assertError(422, RegistryApi.INVALID_SCHEMA, http.post("/subjects/x-value/versions",
                body(SHAPE, "[{\"name\":\"t.Point\",\"subject\":\"t.Point\",\"version\":9}]")));
        assertError(422, RegistryApi.INVALID_SCHEMA, http.post("/subjects/x-value/versions",
                body(SHAPE, "[{\"name\":\"t.Point\",\"subject\":\"t.Point\"}]")));
        assertError(422, RegistryApi.INVALID_SCHEMA, http.post("/subjects/x-value/versions",
                body(SHAPE, "[{\"name\":\"t.Line\",\"subject\":\"t.Point\",\"version\":1}]")));
    }

    @Test
    void referencedByListsTheReferringIds() {
        assertEquals("[" + shapeId + "]", http.get("/subjects/t.Point/versions/1/referencedby").body().toString());
        assertEquals("[]", http.get("/subjects/shape-value/versions/latest/referencedby").body().toString());
        assertError(404, RegistryApi.SUBJECT_NOT_FOUND, http.get("/subjects/nope/versions/1/referencedby"));
    }

    @Test
    void aReferencedVersionOutlivesEverySchemaThatStillResolvesThroughIt() {
        assertError(422, RegistryApi.REFERENCE_EXISTS, http.delete("/subjects/t.Point/versions/1"));
        assertError(422, RegistryApi.REFERENCE_EXISTS, http.delete("/subjects/t.Point"));

        http.delete("/subjects/shape-value");
        // the referrer is only soft-deleted: its id still resolves, so Point may hide but not go
        assertEquals(200, http.delete("/subjects/t.Point/versions/1").status());
        assertError(422, RegistryApi.REFERENCE_EXISTS, http.delete("/subjects/t.Point/versions/1?permanent=true"));
        assertEquals(POINT_REFERENCE, http.get("/schemas/ids/" + shapeId).body().get("references").toString());

        assertEquals(200, http.delete("/subjects/shape-value?permanent=true").status());
        assertEquals(200, http.delete("/subjects/t.Point/versions/1?permanent=true").status());
    }

    private static String body(String schema, String referencesJson) {
        try {
            ObjectNode body = JSON.createObjectNode().put("schema", schema);
            body.set("references", JSON.readTree(referencesJson));
            return body.toString();
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new AssertionError(e);
        }
    }

    private static int registered(RegistryHttp.Reply reply) {
        assertEquals(200, reply.status(), reply.body().toString());
        return reply.body().get("id").asInt();
    }
}
