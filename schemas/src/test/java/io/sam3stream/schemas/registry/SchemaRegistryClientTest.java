package io.sam3stream.schemas.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.sam3stream.schemas.registry.StubRegistry.Answer;
import io.sam3stream.schemas.registry.StubRegistry.Seen;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import org.apache.avro.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What the client sends, what it makes of the answers, and which questions its caches spare the registry. */
class SchemaRegistryClientTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Schema THING = new Schema.Parser().parse(
            "{\"type\":\"record\",\"name\":\"Thing\",\"fields\":[{\"name\":\"a\",\"type\":\"int\"}]}");

    private StubRegistry stub;
    private SchemaRegistryClient client;

    @BeforeEach
    void start() throws IOException {
        stub = new StubRegistry();
        client = SchemaRegistryClient.builder(stub.url()).build();
    }

    @AfterEach
    void stop() {
        stub.close();
    }

    @Test
    void registeredSchemaIsNeitherRegisteredNorFetchedAgain() {
        stub.answer("POST", "/subjects/t-value/versions", Answer.json(200, "{\"id\":7}"));

        int first = client.register("t-value", THING);
        int second = client.register("t-value", THING);
        Schema byId = client.schemaById(7);
        int lookedUp = client.lookUpId("t-value", THING);

        assertEquals(7, first);
        assertEquals(7, second);
        assertEquals(7, lookedUp);
        assertSame(THING, byId);
        assertEquals(1, stub.seen().size());
    }

    @Test
    void eachSubjectIsRegisteredOnce() {
        stub.answer("POST", "/subjects/a-value/versions", Answer.json(200, "{\"id\":7}"));
        stub.answer("POST", "/subjects/b-value/versions", Answer.json(200, "{\"id\":7}"));

        client.register("a-value", THING);
        client.register("b-value", THING);
        client.register("a-value", THING);

        assertEquals(2, stub.seen().size());
    }

    @Test
    void schemaFetchedByIdIsFetchedOnce() {
        stub.answer("GET", "/schemas/ids/3", Answer.json(200, schemaBody(THING)));

        Schema first = client.schemaById(3);
        Schema second = client.schemaById(3);

        assertEquals(THING, first);
        assertSame(first, second);
        assertEquals(1, stub.seen().size());
    }

    @Test
    void lookedUpIdIsAskedOnce() {
        stub.answer("POST", "/subjects/t-value",
                Answer.json(200, "{\"subject\":\"t-value\",\"version\":1,\"id\":5,\"schema\":\"\"}"));

        assertEquals(5, client.lookUpId("t-value", THING));
        assertEquals(5, client.lookUpId("t-value", THING));
        assertEquals(1, stub.seen().size());
    }

    @Test
    void latestVersionAndCompatibilityAreAskedEveryTime() {
        String latest = JSON.createObjectNode().put("subject", "t-value").put("version", 3).put("id", 11)
                .put("schema", THING.toString()).toString();
        stub.answer("GET", "/subjects/t-value/versions/latest", Answer.json(200, latest));
        stub.answer("POST", "/compatibility/subjects/t-value/versions/latest",
                Answer.json(200, "{\"is_compatible\":false}"));

        SubjectVersion version = client.latestVersion("t-value");
        client.latestVersion("t-value");
        assertFalse(client.isCompatibleWithLatest("t-value", THING));
        assertFalse(client.isCompatibleWithLatest("t-value", THING));

        assertEquals(new SubjectVersion("t-value", 3, 11, THING), version);
        assertEquals(4, stub.seen().size());
    }

    @Test
    void unknownIdKeepsConfluentsCodeAndIsAnsweredFromMemoryForAWhile() {
        stub.answer("GET", "/schemas/ids/9",
                Answer.json(404, "{\"error_code\":40403,\"message\":\"Schema 9 not found.\"}"));

        SchemaRegistryException first = assertThrows(SchemaRegistryException.class, () -> client.schemaById(9));
        SchemaRegistryException second = assertThrows(SchemaRegistryException.class, () -> client.schemaById(9));

        assertEquals(404, first.httpStatus());
        assertEquals(RegistryApi.SCHEMA_NOT_FOUND, first.errorCode());
        assertTrue(first.isSchemaNotFound());
        assertTrue(first.getMessage().contains("Schema 9 not found."), first.getMessage());
        assertTrue(second.isSchemaNotFound(), second.getMessage());
        assertEquals(1, stub.seen().size(), "a flood of records naming id 9 costs one question");
    }

    @Test
    void unknownIdIsAskedEveryTimeWithoutAMissingIdTtl() {
        SchemaRegistryClient asking = SchemaRegistryClient.builder(stub.url()).missingIdTtl(Duration.ZERO).build();
        stub.answer("GET", "/schemas/ids/9",
                Answer.json(404, "{\"error_code\":40403,\"message\":\"Schema 9 not found.\"}"));

        assertThrows(SchemaRegistryException.class, () -> asking.schemaById(9));
        assertThrows(SchemaRegistryException.class, () -> asking.schemaById(9));

        assertEquals(2, stub.seen().size());
    }

    @Test
    void otherErrorsAreNotRemembered() {
        stub.answer("GET", "/schemas/ids/9",
                Answer.json(500, "{\"error_code\":50001,\"message\":\"Error in the backend data store\"}"));

        SchemaRegistryException first = assertThrows(SchemaRegistryException.class, () -> client.schemaById(9));
        stub.answer("GET", "/schemas/ids/9", Answer.json(200, schemaBody(THING)));

        assertEquals(50001, first.errorCode());
        assertEquals(THING, client.schemaById(9), "the registry recovered and is asked again");
        assertEquals(2, stub.seen().size());
    }

    @Test
    void requestsCarryTheRegistryMediaTypeCredentialsAndSchema() throws IOException {
        stub.answer("POST", "/subjects/t-value/versions", Answer.json(200, "{\"id\":1}"));
        SchemaRegistryClient withAuth = SchemaRegistryClient.builder(stub.url()).basicAuth("user", "pa:ss").build();

        withAuth.register("t-value", THING);

        Seen request = stub.seen().get(0);
        assertEquals(RegistryApi.CONTENT_TYPE, request.accept());
        assertEquals(RegistryApi.CONTENT_TYPE, request.contentType());
        assertEquals("Basic dXNlcjpwYTpzcw==", request.authorization()); // base64("user:pa:ss")
        assertEquals(THING, new Schema.Parser().parse(JSON.readTree(request.body()).get("schema").asText()));
    }

    @Test
    void subjectsArePercentEncodedUnderTheBaseUrlsPath() {
        stub.answer("POST", "/apis/ccompat/v7/subjects/odd%20subject%2Fname/versions", Answer.json(200, "{\"id\":2}"));
        SchemaRegistryClient prefixed =
                SchemaRegistryClient.builder(URI.create(stub.url() + "/apis/ccompat/v7/")).build();

        assertEquals(2, prefixed.register("odd subject/name", THING));
    }

    @Test
    void nonRegistryErrorPageIsReportedWithItsStatus() {
        stub.answer("GET", "/schemas/ids/1", new Answer(502, "text/html", "<html>Bad Gateway</html>", 0));

        SchemaRegistryException failure = assertThrows(SchemaRegistryException.class, () -> client.schemaById(1));

        assertEquals(502, failure.httpStatus());
        assertTrue(failure.getMessage().contains("Bad Gateway"), failure.getMessage());
    }

    @Test
    void slowRegistryFailsAfterTheTimeout() {
        stub.answer("GET", "/schemas/ids/1", new Answer(200, RegistryApi.CONTENT_TYPE, schemaBody(THING), 5_000));
        SchemaRegistryClient impatient =
                SchemaRegistryClient.builder(stub.url()).timeout(Duration.ofMillis(300)).build();

        long start = System.nanoTime();
        SchemaRegistryException failure = assertThrows(SchemaRegistryException.class, () -> impatient.schemaById(1));
        long elapsedMillis = (System.nanoTime() - start) / 1_000_000;

        assertEquals(0, failure.httpStatus());
        assertTrue(elapsedMillis < 4_000, "gave up after " + elapsedMillis + " ms");
    }

    private static String schemaBody(Schema schema) {
        return JSON.createObjectNode().put("schema", schema.toString()).toString();
    }
}
