package io.sam3stream.schemas.registry.embedded;

import static io.sam3stream.schemas.registry.embedded.TestSchemas.A_INT;
import static io.sam3stream.schemas.registry.embedded.TestSchemas.A_INT_B_DEFAULTED;
import static io.sam3stream.schemas.registry.embedded.TestSchemas.A_INT_B_REQUIRED;
import static io.sam3stream.schemas.registry.embedded.TestSchemas.A_STRING_DEFAULTED;
import static io.sam3stream.schemas.registry.embedded.TestSchemas.EMPTY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A registry with a data directory keeps its ids, versions and levels across restarts. */
class EmbeddedSchemaRegistryPersistenceTest {

    private static final InetSocketAddress ANY_LOOPBACK_PORT =
            new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);

    @TempDir
    Path dataDir;

    @Test
    void restartedRegistryServesTheSameIdsAndVersions() throws IOException {
        try (EmbeddedSchemaRegistry first = EmbeddedSchemaRegistry.start(ANY_LOOPBACK_PORT, dataDir)) {
            RegistryHttp http = new RegistryHttp(first.url());
            http.register("a-value", A_INT);
            http.register("a-value", A_INT_B_DEFAULTED);
            http.register("b-value", EMPTY);
            http.put("/config/b-value", "{\"compatibility\":\"NONE\"}");
        }

        try (EmbeddedSchemaRegistry second = EmbeddedSchemaRegistry.start(ANY_LOOPBACK_PORT, dataDir)) {
            RegistryHttp http = new RegistryHttp(second.url());
            assertEquals(A_INT.toString(), http.get("/schemas/ids/1").body().get("schema").asText());
            assertEquals(2, http.get("/subjects/a-value/versions/latest").body().get("id").asInt());
            assertEquals(3, http.get("/subjects/b-value/versions/1").body().get("id").asInt());
            assertEquals("NONE", http.get("/config/b-value").body().get("compatibilityLevel").asText());
            // ids keep counting from where the first run stopped, and rules still hold
            assertEquals(4, http.register("c-value", A_INT_B_REQUIRED));
            assertEquals(409, http.postSchema("/subjects/a-value/versions", A_STRING_DEFAULTED).status());
        }
    }

    @Test
    void unreadableStateStopsTheStartRatherThanResettingIds() throws IOException {
        Files.writeString(dataDir.resolve(RegistryStateFile.FILE_NAME), "{\"schemas\": {\"1\": ");

        IOException failure = assertThrows(IOException.class,
                () -> EmbeddedSchemaRegistry.start(ANY_LOOPBACK_PORT, dataDir));
        assertTrue(failure.getMessage().contains(RegistryStateFile.FILE_NAME), failure.getMessage());
    }

    @Test
    void stateReferringToAMissingSchemaStopsTheStart() throws IOException {
        Files.writeString(dataDir.resolve(RegistryStateFile.FILE_NAME),
                "{\"compatibility\":\"BACKWARD\",\"schemas\":{},\"subjects\":{\"s-value\":[1]}}");

        assertThrows(IOException.class, () -> EmbeddedSchemaRegistry.start(ANY_LOOPBACK_PORT, dataDir));
    }
}
