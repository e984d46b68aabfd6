package io.sam3stream.schemas.registry.embedded;

import static io.sam3stream.schemas.registry.embedded.TestSchemas.A_INT;
import static io.sam3stream.schemas.registry.embedded.TestSchemas.A_INT_B_DEFAULTED;
import static io.sam3stream.schemas.registry.embedded.TestSchemas.A_INT_B_OTHER_DEFAULT;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sam3stream.schemas.registry.RegistryApi;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Soft and permanent deletes of versions and subjects, with Confluent's rules and error codes. */
class RegistryDeletesTest extends InMemoryRegistryTest {

    @BeforeEach
    void twoVersions() {
        assertEquals(1, http.register("s-value", A_INT));
        assertEquals(2, http.register("s-value", A_INT_B_DEFAULTED));
    }

    @Test
    void aSoftDeletedVersionIsHiddenButItsIdStillResolves() {
        assertEquals("1", http.delete("/subjects/s-value/versions/1").body().toString());

        assertEquals("[2]", http.get("/subjects/s-value/versions").body().toString());
        assertEquals("[1,2]", http.get("/subjects/s-value/versions?deleted=true").body().toString());
        assertError(404, RegistryApi.VERSION_NOT_FOUND, http.get("/subjects/s-value/versions/1"));
        assertEquals(1, http.get("/subjects/s-value/versions/1?deleted=true").body().get("id").asInt());
        assertEquals(A_INT.toString(), http.get("/schemas/ids/1").body().get("schema").asText());
        assertEquals("[]", http.get("/schemas/ids/1/subjects").body().toString());
        assertEquals("[\"s-value\"]", http.get("/schemas/ids/1/subjects?deleted=true").body().toString());
        assertEquals("[]", http.get("/schemas/ids/1/versions").body().toString());
        assertError(404, RegistryApi.SCHEMA_NOT_FOUND, http.postSchema("/subjects/s-value", A_INT));
        assertEquals(1, http.postSchema("/subjects/s-value?deleted=true", A_INT).body().get("version").asInt());
        assertError(404, RegistryApi.VERSION_SOFT_DELETED, http.delete("/subjects/s-value/versions/1"));
    }

    @Test
    void softDeletedVersionsNoLongerBindCompatibility() {
        http.delete("/subjects/s-value/versions/latest");
        http.delete("/subjects/s-value/versions/latest");

        // with both versions soft-deleted nothing constrains the subject, and numbering goes on
        assertEquals(3, http.register("s-value", TestSchemas.A_INT_B_REQUIRED));
        assertEquals("[3]", http.get("/subjects/s-value/versions").body().toString());
        assertEquals(3, http.get("/subjects/s-value/versions/latest").body().get("version").asInt());
    }

    @Test
    void reRegisteringASoftDeletedSchemaKeepsItsIdUnderANewVersion() {
        http.delete("/subjects/s-value/versions/2");

        assertEquals(2, http.register("s-value", A_INT_B_DEFAULTED));
        assertEquals("[1,3]", http.get("/subjects/s-value/versions").body().toString());
    }

    @Test
    void aVersionIsDeletedPermanentlyOnlyAfterASoftDeleteAndItsIdIsNeverReused() {
        assertError(404, RegistryApi.VERSION_NOT_SOFT_DELETED,
                http.delete("/subjects/s-value/versions/2?permanent=true"));
        http.delete("/subjects/s-value/versions/2");

        assertEquals("2", http.delete("/subjects/s-value/versions/2?permanent=true").body().toString());

        assertEquals("[1]", http.get("/subjects/s-value/versions?deleted=true").body().toString());
        assertError(404, RegistryApi.SCHEMA_NOT_FOUND, http.get("/schemas/ids/2"));
        assertError(404, RegistryApi.VERSION_NOT_FOUND, http.delete("/subjects/s-value/versions/2?permanent=true"));
        assertEquals(3, http.register("s-value", A_INT_B_OTHER_DEFAULT));
    }

    @Test
    void aSubjectIsSoftDeletedThenPermanentlyWithItsOwnLevelAndMode() {
        http.put("/config/s-value", "{\"compatibility\":\"NONE\"}");
        http.put("/mode/s-value", "{\"mode\":\"READWRITE\"}");
        assertError(404, RegistryApi.SUBJECT_NOT_SOFT_DELETED, http.delete("/subjects/s-value?permanent=true"));

        assertEquals("[1,2]", http.delete("/subjects/s-value").body().toString());
        assertEquals("[]", http.get("/subjects").body().toString());
        assertEquals("[\"s-value\"]", http.get("/subjects?deleted=true").body().toString());
        assertError(404, RegistryApi.SUBJECT_NOT_FOUND, http.get("/subjects/s-value/versions"));
        assertError(404, RegistryApi.SUBJECT_SOFT_DELETED, http.delete("/subjects/s-value"));
        assertEquals(200, http.get("/schemas/ids/2").status());

        assertEquals("[1,2]", http.delete("/subjects/s-value?permanent=true").body().toString());
        assertEquals("[]", http.get("/subjects?deleted=true").body().toString());
        assertError(404, RegistryApi.SCHEMA_NOT_FOUND, http.get("/schemas/ids/1"));
        assertError(404, RegistryApi.SUBJECT_LEVEL_NOT_CONFIGURED, http.get("/config/s-value"));
        assertError(404, RegistryApi.SUBJECT_LEVEL_MODE_NOT_CONFIGURED, http.get("/mode/s-value"));
        assertError(404, RegistryApi.SUBJECT_NOT_FOUND, http.delete("/subjects/s-value"));
    }

    @Test
    void deletesOfWhatDoesNotExistAnswerWithConfluentsCodes() {
        assertError(404, RegistryApi.SUBJECT_NOT_FOUND, http.delete("/subjects/nope"));
        assertError(404, RegistryApi.SUBJECT_NOT_FOUND, http.delete("/subjects/nope/versions/1"));
        assertError(404, RegistryApi.VERSION_NOT_FOUND, http.delete("/subjects/s-value/versions/7"));
        assertError(422, RegistryApi.INVALID_VERSION, http.delete("/subjects/s-value/versions/first"));
    }
}
