package io.sam3stream.schemas.registry.embedded;

import static io.sam3stream.schemas.registry.embedded.TestSchemas.A_INT;
import static io.sam3stream.schemas.registry.embedded.TestSchemas.A_INT_B_DEFAULTED;
import static io.sam3stream.schemas.registry.embedded.TestSchemas.A_INT_B_REQUIRED;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sam3stream.schemas.registry.RegistryApi;
import org.junit.jupiter.api.Test;

/** READWRITE, READONLY and IMPORT, for the registry and for single subjects. */
class RegistryModesTest extends InMemoryRegistryTest {

    private static final String READONLY = "{\"mode\":\"READONLY\"}";
    private static final String READWRITE = "{\"mode\":\"READWRITE\"}";
    private static final String IMPORT = "{\"mode\":\"IMPORT\"}";

    @Test
    void readOnlyRefusesRegistrationsAndDeletesButServesReads() {
        http.register("s-value", A_INT);

        assertEquals("READONLY", http.put("/mode", READONLY).body().get("mode").asText());

        assertEquals("READONLY", http.get("/mode").body().get("mode").asText());
        assertError(422, RegistryApi.OPERATION_NOT_PERMITTED,
                http.postSchema("/subjects/s-value/versions", A_INT_B_DEFAULTED));
        assertError(422, RegistryApi.OPERATION_NOT_PERMITTED, http.delete("/subjects/s-value"));
        assertError(422, RegistryApi.OPERATION_NOT_PERMITTED, http.delete("/subjects/s-value/versions/1"));
        assertEquals(1, http.get("/subjects/s-value/versions/latest").body().get("id").asInt());
        http.put("/mode", READWRITE);
        assertEquals(2, http.register("s-value", A_INT_B_DEFAULTED));
    }

    @Test
    void aSubjectsOwnModeOverridesTheGlobalOneUntilDeleted() {
        assertError(404, RegistryApi.SUBJECT_LEVEL_MODE_NOT_CONFIGURED, http.get("/mode/s-value"));
        assertEquals("READWRITE", http.get("/mode/s-value?defaultToGlobal=true").body().get("mode").asText());

        http.put("/mode/s-value", READONLY);

        assertEquals("READONLY", http.get("/mode/s-value").body().get("mode").asText());
        assertError(422, RegistryApi.OPERATION_NOT_PERMITTED, http.postSchema("/subjects/s-value/versions", A_INT));
        assertEquals(1, http.register("other-value", A_INT));
        assertEquals("READONLY", http.delete("/mode/s-value").body().get("mode").asText());
        assertError(404, RegistryApi.SUBJECT_LEVEL_MODE_NOT_CONFIGURED, http.delete("/mode/s-value"));
        assertEquals(1, http.register("s-value", A_INT));
    }

    @Test
    void importKeepsTheGivenIdsAndVersionsAndSkipsCompatibility() {
        http.put("/mode/imported-value", IMPORT);

        int id = http.post("/subjects/imported-value/versions",
                "{\"schema\":" + quoted(A_INT) + ",\"id\":42,\"version\":5}").body().get("id").asInt();
        int breaking = http.post("/subjects/imported-value/versions",
                "{\"schema\":" + quoted(A_INT_B_REQUIRED) + ",\"id\":40,\"version\":6}").body().get("id").asInt();

        assertEquals(42, id);
        assertEquals(40, breaking);
        assertEquals("[5,6]", http.get("/subjects/imported-value/versions").body().toString());
        assertEquals(A_INT.toString(), http.get("/schemas/ids/42").body().get("schema").asText());
        assertError(422, RegistryApi.OPERATION_NOT_PERMITTED, http.post("/subjects/imported-value/versions",
                "{\"schema\":" + quoted(A_INT_B_DEFAULTED) + ",\"id\":42}"));
        assertError(422, RegistryApi.OPERATION_NOT_PERMITTED, http.post("/subjects/imported-value/versions",
                "{\"schema\":" + quoted(A_INT_B_DEFAULTED) + ",\"version\":5}"));
        // ids given out afterwards start past every imported one
        assertEquals(43, http.register("fresh-value", A_INT_B_DEFAULTED));
    }

    @Test
    void idsAreGivenOnlyInImportModeAndImportOverExistingSubjectsNeedsForce() {
        http.register("s-value", A_INT);

        assertError(422, RegistryApi.OPERATION_NOT_PERMITTED, http.post("/subjects/s-value/versions",
                "{\"schema\":" + quoted(A_INT_B_DEFAULTED) + ",\"id\":9}"));
        assertError(422, RegistryApi.OPERATION_NOT_PERMITTED, http.put("/mode", IMPORT));
        assertError(422, RegistryApi.OPERATION_NOT_PERMITTED, http.put("/mode/s-value", IMPORT));
        assertEquals("IMPORT", http.put("/mode?force=true", IMPORT).body().get("mode").asText());
        assertEquals("IMPORT", http.get("/mode/s-value?defaultToGlobal=true").body().get("mode").asText());
        assertError(422, RegistryApi.INVALID_MODE, http.put("/mode", "{\"mode\":\"SOMETIMES\"}"));
        assertEquals("IMPORT", http.delete("/mode").body().get("mode").asText());
        assertEquals("READWRITE", http.get("/mode").body().get("mode").asText());
    }

    private static String quoted(org.apache.avro.Schema schema) {
        return com.fasterxml.jackson.databind.node.TextNode.valueOf(schema.toString()).toString();
    }
}
