package io.sam3stream.schemas.registry.embedded;

import static io.sam3stream.schemas.registry.embedded.TestSchemas.A_INT;
import static io.sam3stream.schemas.registry.embedded.TestSchemas.A_INT_B_DEFAULTED;
import static io.sam3stream.schemas.registry.embedded.TestSchemas.A_INT_B_OTHER_DEFAULT;
import static io.sam3stream.schemas.registry.embedded.TestSchemas.A_INT_B_REQUIRED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sam3stream.schemas.registry.RegistryApi;
import io.sam3stream.schemas.registry.embedded.RegistryHttp.Reply;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;

/** The registry's REST semantics, checked over HTTP as Confluent documents them. */
class EmbeddedSchemaRegistryTest extends InMemoryRegistryTest {

    @Test
    void reRegisteringASchemaReturnsItsIdWithoutANewVersion() {
        int first = http.register("s-value", A_INT);
        int again = http.register("s-value", A_INT);

        assertEquals(1, first);
        assertEquals(first, again);
        assertEquals("[1]", http.get("/subjects/s-value/versions").body().toString());
    }

    @Test
    void idsAreGlobalAndSharedBySubjectsHoldingTheSameSchema() {
        int inFirstSubject = http.register("a-value", A_INT);
        String reformatted = A_INT.toString().replace(",", " ,\n  "); // same schema, other whitespace
        Reply inSecondSubject = http.postSchema("/subjects/b-value/versions", reformatted);
        int other = http.register("b-value", A_INT_B_DEFAULTED);

        assertEquals(inFirstSubject, inSecondSubject.body().get("id").asInt());
        assertEquals(2, other);
        assertEquals("[\"a-value\",\"b-value\"]", http.get("/subjects").body().toString());
        assertEquals("[1,2]", http.get("/subjects/b-value/versions").body().toString());
    }

    @Test
    void schemasDifferingOnlyInADefaultGetDifferentIds() {
        int one = http.register("s-value", A_INT_B_DEFAULTED);
        int two = http.register("s-value", A_INT_B_OTHER_DEFAULT);

        assertNotEquals(one, two);
        Schema served = new Schema.Parser().parse(http.get("/schemas/ids/" + two).body().get("schema").asText());
        assertEquals("x", served.getField("b").defaultVal());
    }

    @Test
    void versionsAndIdsAreServedInConfluentsShapes() {
        http.register("s-value", A_INT);
        http.register("s-value", A_INT_B_DEFAULTED);

        Reply latest = http.get("/subjects/s-value/versions/latest");
        Reply first = http.get("/subjects/s-value/versions/1");
        Reply byId = http.get("/schemas/ids/2");
        Reply lookedUp = http.postSchema("/subjects/s-value", A_INT);

        assertEquals(RegistryApi.CONTENT_TYPE, latest.contentType());
        assertEquals("s-value", latest.body().get("subject").asText());
        assertEquals(2, latest.body().get("version").asInt());
        assertEquals(2, latest.body().get("id").asInt());
        assertEquals(A_INT_B_DEFAULTED, new Schema.Parser().parse(latest.body().get("schema").asText()));
        assertEquals(1, first.body().get("id").asInt());
        assertEquals(A_INT_B_DEFAULTED.toString(), byId.body().get("schema").asText());
        assertEquals(1, lookedUp.body().get("version").asInt());
        assertEquals(1, lookedUp.body().get("id").asInt());
    }

    @Test
    void theLookupsConfluentsClientsMakeAreServed() {
        http.register("a-value", A_INT);
        http.register("b-value", A_INT);
        http.register("b-value", A_INT_B_DEFAULTED);

        assertEquals("[\"AVRO\"]", http.get("/schemas/types").body().toString());
        assertEquals(A_INT, new Schema.Parser().parse(http.get("/schemas/ids/1/schema").body().toString()));
        assertEquals("[\"a-value\",\"b-value\"]", http.get("/schemas/ids/1/subjects").body().toString());
        assertEquals("[{\"subject\":\"a-value\",\"version\":1},{\"subject\":\"b-value\",\"version\":1}]",
                http.get("/schemas/ids/1/versions").body().toString());
        assertEquals("[{\"subject\":\"b-value\",\"version\":2}]", http.get("/schemas/ids/2/versions").body()
                .toString());
        assertEquals(A_INT_B_DEFAULTED, new Schema.Parser().parse(
                http.get("/subjects/b-value/versions/latest/schema").body().toString()));
        assertEquals("[\".\"]", http.get("/contexts").body().toString());
        assertEquals("READWRITE", http.get("/mode").body().get("mode").asText());
        assertEquals(404, http.get("/schemas/ids/99/subjects").status());
    }

    @Test
    void incompatibleRegistrationIsRefusedWith409AndChangesNothing() {
        http.register("s-value", A_INT);

        Reply refused = http.postSchema("/subjects/s-value/versions", A_INT_B_REQUIRED);

        assertEquals(409, refused.status());
        assertEquals(409, refused.errorCode());
        assertTrue(refused.body().get("message").asText().contains("incompatible"), refused.body().toString());
        assertEquals("[1]", http.get("/subjects/s-value/versions").body().toString());
        assertEquals(404, http.get("/schemas/ids/2").status());
    }

    @Test
    void compatibilityCheckJudgesWithoutRegistering() {
        http.register("s-value", A_INT);

        Reply good = http.postSchema("/compatibility/subjects/s-value/versions/latest", A_INT_B_DEFAULTED);
        Reply bad = http.postSchema("/compatibility/subjects/s-value/versions/latest?verbose=true", A_INT_B_REQUIRED);
        Reply newSubject = http.postSchema("/compatibility/subjects/new-value/versions/latest", A_INT_B_REQUIRED);

        assertTrue(good.body().get("is_compatible").asBoolean());
        assertFalse(bad.body().get("is_compatible").asBoolean());
        assertTrue(bad.body().get("messages").get(0).asText().contains("READER_FIELD_MISSING_DEFAULT_VALUE"),
                bad.body().toString());
        assertTrue(newSubject.body().get("is_compatible").asBoolean());
        assertEquals("[1]", http.get("/subjects/s-value/versions").body().toString());
    }

    @Test
    void missingThingsAnswer404WithConfluentsErrorCodes() {
        http.register("s-value", A_INT);

        assertError(404, RegistryApi.SUBJECT_NOT_FOUND, http.get("/subjects/nope/versions"));
        assertError(404, RegistryApi.SUBJECT_NOT_FOUND, http.get("/subjects/nope/versions/latest"));
        assertError(404, RegistryApi.SUBJECT_NOT_FOUND, http.postSchema("/subjects/nope", A_INT));
        assertError(404, RegistryApi.VERSION_NOT_FOUND, http.get("/subjects/s-value/versions/2"));
        assertError(404, RegistryApi.SCHEMA_NOT_FOUND, http.get("/schemas/ids/42"));
        assertError(404, RegistryApi.SCHEMA_NOT_FOUND, http.postSchema("/subjects/s-value", A_INT_B_DEFAULTED));
        assertError(404, 404, http.get("/no/such/endpoint"));
    }

    @Test
    void malformedInputAnswers422WithConfluentsErrorCodes() {
        http.register("s-value", A_INT);

        assertError(422, RegistryApi.INVALID_SCHEMA, http.postSchema("/subjects/s-value/versions", "{\"type\":"));
        assertError(422, RegistryApi.INVALID_SCHEMA,
                http.post("/subjects/s-value/versions", "{\"schema\":\"\\\"int\\\"\",\"schemaType\":\"PROTOBUF\"}"));
        assertError(422, RegistryApi.INVALID_VERSION, http.get("/subjects/s-value/versions/zero"));
        assertError(422, RegistryApi.INVALID_VERSION, http.get("/subjects/s-value/versions/0"));
        assertError(422, RegistryApi.INVALID_COMPATIBILITY_LEVEL, http.put("/config", "{\"compatibility\":\"MOST\"}"));
        assertError(405, 405, http.put("/subjects", "{}"));
    }

    @Test
    void compatibilityLevelIsBackwardUntilConfigured() {
        assertEquals("BACKWARD", http.get("/config").body().get("compatibilityLevel").asText());
        assertError(404, RegistryApi.SUBJECT_LEVEL_NOT_CONFIGURED, http.get("/config/s-value"));
        http.register("s-value", A_INT);

        Reply set = http.put("/config/s-value", "{\"compatibility\":\"NONE\"}");
        Reply accepted = http.postSchema("/subjects/s-value/versions", A_INT_B_REQUIRED);

        assertEquals("NONE", set.body().get("compatibility").asText());
        assertEquals("NONE", http.get("/config/s-value").body().get("compatibilityLevel").asText());
        assertEquals("BACKWARD", http.get("/config").body().get("compatibilityLevel").asText());
        assertEquals(200, accepted.status());
        assertEquals(2, accepted.body().get("id").asInt());
    }

    @Test
    void globalLevelAppliesToSubjectsWithoutTheirOwn() {
        http.register("s-value", A_INT_B_REQUIRED);
        http.put("/config", "{\"compatibility\":\"FORWARD\"}");

        // Dropping the required b: the old schema cannot read new data, which FORWARD demands.
        Reply refused = http.postSchema("/subjects/s-value/versions", A_INT);

        assertEquals("FORWARD", http.get("/config").body().get("compatibilityLevel").asText());
        assertError(409, RegistryApi.INCOMPATIBLE_SCHEMA, refused);
    }
}
