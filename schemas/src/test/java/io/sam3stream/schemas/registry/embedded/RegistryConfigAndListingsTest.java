package io.sam3stream.schemas.registry.embedded;

import static io.sam3stream.schemas.registry.embedded.TestSchemas.A_INT;
import static io.sam3stream.schemas.registry.embedded.TestSchemas.A_INT_B_DEFAULTED;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.sam3stream.schemas.registry.RegistryApi;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Subject-level configuration and the listings' query flags. */
class RegistryConfigAndListingsTest extends InMemoryRegistryTest {

    @Test
    void aSubjectLevelIsDeletedBackToTheGlobalOne() {
        assertError(404, RegistryApi.SUBJECT_LEVEL_NOT_CONFIGURED, http.delete("/config/s-value"));
        assertEquals("BACKWARD",
                http.get("/config/s-value?defaultToGlobal=true").body().get("compatibilityLevel").asText());
        http.put("/config/s-value", "{\"compatibility\":\"NONE\"}");

        assertEquals("NONE", http.delete("/config/s-value").body().get("compatibilityLevel").asText());

        assertError(404, RegistryApi.SUBJECT_LEVEL_NOT_CONFIGURED, http.get("/config/s-value"));
        http.put("/config", "{\"compatibility\":\"FULL\"}");
        assertEquals("FULL", http.get("/config/s-value?defaultToGlobal=true").body().get("compatibilityLevel")
                .asText());
        assertEquals("FULL", http.delete("/config").body().get("compatibilityLevel").asText());
        assertEquals("BACKWARD", http.get("/config").body().get("compatibilityLevel").asText());
    }

    @Test
    void schemasListsVersionsWithTheSubjectPrefixDeletedAndLatestOnlyFlags() {
        http.register("a-value", A_INT);
        http.register("a-value", A_INT_B_DEFAULTED);
        http.register("b-value", A_INT);
        http.delete("/subjects/a-value/versions/1");

        assertEquals(List.of("a-value/2", "b-value/1"), versions(http.get("/schemas")));
        assertEquals(List.of("a-value/1", "a-value/2", "b-value/1"), versions(http.get("/schemas?deleted=true")));
        assertEquals(List.of("a-value/2", "b-value/1"),
                versions(http.get("/schemas?deleted=true&latestOnly=true")));
        assertEquals(List.of("b-value/1"), versions(http.get("/schemas?subjectPrefix=b")));
        assertEquals(List.of("b-value/1"), versions(http.get("/schemas?offset=1&limit=1")));
        JsonNode first = http.get("/schemas").body().get(0);
        assertEquals(2, first.get("id").asInt());
        assertEquals(A_INT_B_DEFAULTED.toString(), first.get("schema").asText());
        assertError(400, 400, http.get("/schemas?limit=many"));
        assertEquals("[1]", http.get("/subjects/a-value/versions?deletedOnly=true").body().toString());
        assertEquals(2, http.get("/schemas/ids/1?fetchMaxId=true").body().get("maxId").asInt());
    }

    @Test
    void subjectsListsWithTheSubjectPrefixAndDeletedFlags() {
        http.register("a-value", A_INT);
        http.register("ab-value", A_INT);
        http.register("b-value", A_INT);
        http.delete("/subjects/ab-value");

        assertEquals("[\"a-value\",\"b-value\"]", http.get("/subjects").body().toString());
        assertEquals("[\"a-value\",\"ab-value\",\"b-value\"]", http.get("/subjects?deleted=true").body().toString());
        assertEquals("[\"a-value\"]", http.get("/subjects?subjectPrefix=a").body().toString());
        assertEquals("[\"a-value\",\"ab-value\"]",
                http.get("/subjects?subjectPrefix=a&deleted=true").body().toString());
        assertEquals("[\"ab-value\"]", http.get("/subjects?deletedOnly=true").body().toString());
    }

    private static List<String> versions(RegistryHttp.Reply reply) {
        List<String> found = new ArrayList<>();
        reply.body().forEach(v -> found.add(v.get("subject").asText() + "/" + v.get("version").asInt()));
        return found;
    }
}
