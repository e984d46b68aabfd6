package io.sam3stream.facade;

import static io.sam3stream.facade.testing.FacadeHarness.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import io.sam3stream.facade.testing.Bodies;
import io.sam3stream.facade.testing.FacadeHarness;
import io.sam3stream.facade.testing.TestImages;
import io.sam3stream.facade.testing.TestStack;
import java.io.ByteArrayInputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every error the facade decides on its own, each produced by sending the offending request over HTTP to a
 * facade on a real broker. No worker exists here, so a request that passes every check gets 503; a request that
 * is refused earlier proves that the check runs before anything is produced.
 */
@ExtendWith(TestStack.class)
class PredictErrorsTest {

    private static final String KEY = "secret-key-1";
    private static final int MAX_MESSAGE_BYTES = 64 * 1024;
    private static FacadeHarness facade;
    /** The /predict request schema of the document this facade serves, built once. */
    private static Schema requestSchema;

    @BeforeAll
    static void startFacade() throws Exception {
        facade = FacadeHarness.start(Map.of(
                "SAM3_API_KEYS", KEY + ", secret-key-2",
                "SAM3_REQUESTS_TOPIC", TestStack.uniqueTopic("requests"),
                "SAM3_WORKERS_TOPIC", TestStack.uniqueTopic("workers"),
                "SAM3_REPLY_TOPIC", TestStack.uniqueTopic("replies"),
                "SAM3_REPLY_PARTITIONS", "0",
                "SAM3_MAX_SIDE", "2048",
                "SAM3_MAX_PIXELS", "1000000",
                "SAM3_MAX_PROMPTS", "2",
                "SAM3_MAX_MESSAGE_BYTES", Integer.toString(MAX_MESSAGE_BYTES)));
        requestSchema = servedRequestSchema();
    }

    @AfterAll
    static void stopFacade() {
        facade.close();
    }

    private static final String IMAGE = TestImages.base64(TestImages.pngHeader(640, 480));

    static Stream<Arguments> offendingBodies() {
        return Stream.of(
                // 422: the body violates the schema
                bad(422, "malformed JSON", "{\"image\": \"" + IMAGE + "\", \"prompts\": [\"cat\"]"),
                bad(422, "malformed JSON", "not json at all"),
                bad(422, "got an empty body", ""),
                bad(422, "Duplicate field 'threshold'",
                        "{\"image\": \"" + IMAGE + "\", \"prompts\": [\"cat\"], \"threshold\": 0.1, \"threshold\": 0.9}"),
                bad(422, "must be an object", "[1, 2]"),
                bad(422, "image: field required", "{\"prompts\": [\"cat\"]}"),
                bad(422, "image: must be a string", "{\"image\": 12, \"prompts\": [\"cat\"]}"),
                bad(422, "prompts: field required", "{\"image\": \"" + IMAGE + "\"}"),
                bad(422, "prompts: must be an array", "{\"image\": \"" + IMAGE + "\", \"prompts\": \"cat\"}"),
                bad(422, "prompts[1]: must be a string or an object",
                        "{\"image\": \"" + IMAGE + "\", \"prompts\": [\"cat\", 3]}"),
                bad(422, "prompts[0].text: field required",
                        "{\"image\": \"" + IMAGE + "\", \"prompts\": [{\"boxes\": []}]}"),
                bad(422, "prompts[0].boxes[0].box_xyxy: must be [x0, y0, x1, y1]",
                        "{\"image\": \"" + IMAGE + "\", \"prompts\": [{\"text\": \"cat\", \"boxes\": [{\"box_xyxy\": [1, 2, 3]}]}]}"),
                bad(422, "needs x1 > x0 and y1 > y0",
                        "{\"image\": \"" + IMAGE + "\", \"prompts\": [{\"text\": \"cat\", \"boxes\": [{\"box_xyxy\": [10, 10, 5, 20]}]}]}"),
                bad(422, "positive: must be a boolean",
                        "{\"image\": \"" + IMAGE + "\", \"prompts\": [{\"text\": \"cat\", \"boxes\": [{\"box_xyxy\": [1, 2, 3, 4], \"positive\": \"yes\"}]}]}"),
                bad(422, "threshold: must be a number in [0, 1]",
                        "{\"image\": \"" + IMAGE + "\", \"prompts\": [\"cat\"], \"threshold\": 1.5}"),
                bad(422, "threshold: must be a number in [0, 1]",
                        "{\"image\": \"" + IMAGE + "\", \"prompts\": [\"cat\"], \"threshold\": -0.01}"),
                bad(422, "malformed JSON", "{\"image\": \"" + IMAGE + "\", \"prompts\": [\"cat\"], \"threshold\": NaN}"),
                bad(422, "threshold: must be a number",
                        "{\"image\": \"" + IMAGE + "\", \"prompts\": [\"cat\"], \"threshold\": \"0.5\"}"),
                bad(422, "threshold: must be a number",
                        "{\"image\": \"" + IMAGE + "\", \"prompts\": [\"cat\"], \"threshold\": null}"),
                bad(422, "max_instances: must be an integer in [1, 200]",
                        "{\"image\": \"" + IMAGE + "\", \"prompts\": [\"cat\"], \"max_instances\": 0}"),
                bad(422, "max_instances: must be an integer in [1, 200]",
                        "{\"image\": \"" + IMAGE + "\", \"prompts\": [\"cat\"], \"max_instances\": 201}"),
                bad(422, "max_instances: must be an integer",
                        "{\"image\": \"" + IMAGE + "\", \"prompts\": [\"cat\"], \"max_instances\": 2.5}"),
                bad(422, "mask_format: must be one of png, rle, rle_compressed, none",
                        "{\"image\": \"" + IMAGE + "\", \"prompts\": [\"cat\"], \"mask_format\": \"jpeg\"}"),
                bad(422, "metadata.camera: must be a string",
                        "{\"image\": \"" + IMAGE + "\", \"prompts\": [\"cat\"], \"metadata\": {\"camera\": 7}}"),
                // 400: well-formed, but the content cannot be served
                bad(400, "image: not valid base64", "{\"image\": \"@@not base64@@\", \"prompts\": [\"cat\"]}"),
                bad(400, "image: not a PNG or JPEG image",
                        "{\"image\": \"" + TestImages.base64("GIF89a.....".getBytes()) + "\", \"prompts\": [\"cat\"]}"),
                bad(400, "image: not a PNG or JPEG image", "{\"image\": \"\", \"prompts\": [\"cat\"]}"),
                bad(400, "truncated PNG", "{\"image\": \"" + TestImages.base64(Arrays.copyOf(
                        TestImages.pngHeader(640, 480), 20)) + "\", \"prompts\": [\"cat\"]}"),
                bad(400, "zero side", "{\"image\": \"" + TestImages.base64(TestImages.pngHeader(0, 480))
                        + "\", \"prompts\": [\"cat\"]}"),
                bad(400, "over SAM3_MAX_SIDE=2048", "{\"image\": \"" + TestImages.base64(TestImages.pngHeader(2049, 10))
                        + "\", \"prompts\": [\"cat\"]}"),
                bad(400, "more than SAM3_MAX_PIXELS=1000000", "{\"image\": \""
                        + TestImages.base64(TestImages.pngHeader(2000, 1000)) + "\", \"prompts\": [\"cat\"]}"),
                bad(400, "at least one prompt", "{\"image\": \"" + IMAGE + "\", \"prompts\": []}"),
                bad(400, "more than SAM3_MAX_PROMPTS=2", "{\"image\": \"" + IMAGE + "\", \"prompts\": [\"a\", \"b\", \"c\"]}"),
                bad(400, "prompts[1]: empty prompt", "{\"image\": \"" + IMAGE + "\", \"prompts\": [\"cat\", \"  \"]}"),
                bad(400, "prompts[0]: empty prompt", "{\"image\": \"" + IMAGE + "\", \"prompts\": [{\"text\": \"\"}]}"),
                bad(422, "at most 1000 are allowed", "{\"image\": \"" + IMAGE + "\", \"prompts\": [\""
                        + "cat".repeat(400) + "\"]}"));
    }

    private static Arguments bad(int status, String detail, String body) {
        return Arguments.of(status, detail, body);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("offendingBodies")
    void refusesTheOffendingBodyBeforeProducing(int status, String detail, String body) {
        HttpResponse<String> response = facade.predict(body);

        assertError(response, status, detail);
    }

    /**
     * Refusals no JSON Schema can express: the body is not JSON at all (or repeats a key, which a schema never
     * sees), the image's bytes are not a servable PNG/JPEG (the schema checks base64, not the file inside), and
     * a box's corners out of order (a relation between two numbers). The facade's README names them.
     */
    private static boolean beyondTheSchema(String detail, String body) {
        return detail.equals("malformed JSON") || detail.equals("got an empty body")
                || detail.startsWith("Duplicate field") || detail.equals("needs x1 > x0 and y1 > y0")
                || detail.equals("truncated PNG") || detail.equals("zero side") || detail.startsWith("over SAM3_MAX_SIDE")
                || detail.startsWith("more than SAM3_MAX_PIXELS")
                || detail.equals("image: not a PNG or JPEG image") && !body.contains("\"image\": \"\"");
    }

    /** Bodies the facade accepts (so, without a worker, answers 503), at the edges of every field. */
    static Stream<String> acceptedBodies() {
        String longest = "c".repeat(1000);
        return Stream.of(
                "{\"image\": \"" + IMAGE + "\", \"prompts\": [\"cat\"]}",
                "{\"image\": \"" + IMAGE + "\", \"prompts\": [\"cat\", \"dog\"], \"threshold\": 0,"
                        + " \"max_instances\": 1, \"mask_format\": \"rle\"}",
                "{\"image\": \"" + IMAGE + "\", \"prompts\": [\"" + longest + "\"], \"threshold\": 1,"
                        + " \"max_instances\": 200, \"mask_format\": \"rle_compressed\"}",
                "{\"image\": \"" + IMAGE + "\", \"prompts\": [{\"text\": \"cat\", \"boxes\": [{\"box_xyxy\":"
                        + " [1, 2, 30, 40], \"positive\": false}]}], \"mask_format\": \"none\","
                        + " \"metadata\": {\"camera\": \"7\"}}");
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("offendingBodies")
    void theOpenApiSchemaRejectsEveryBodyRefusedForAReasonItCanExpress(int status, String detail, String body)
            throws Exception {
        if (beyondTheSchema(detail, body)) {
            return;
        }
        List<Error> violations = requestSchema.validate(new ObjectMapper().readTree(body));
        assertFalse(violations.isEmpty(), "refused with " + status + " (" + detail + ") but valid for /openapi.json");
    }

    @ParameterizedTest
    @MethodSource("acceptedBodies")
    void theOpenApiSchemaAcceptsWhatTheFacadeAccepts(String body) throws Exception {
        assertError(facade.predict(body), 503, "no worker is READY");
        assertEquals(List.of(), requestSchema.validate(new ObjectMapper().readTree(body)));
    }

    /** The /predict request schema of the document this facade serves (its limits filled in). */
    private static Schema servedRequestSchema() {
        ObjectNode document = (ObjectNode) json(facade.get("/openapi.json")).deepCopy();
        document.put("$schema", "https://json-schema.org/draft/2020-12/schema");
        document.put("$ref", "#/components/schemas/PredictRequest");
        return SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12).getSchema(
                SchemaLocation.of("https://sam3-stream.invalid/openapi.json"), document);
    }

    @Test
    void aValidRequestGets503WhileNoWorkerIsReady() {
        HttpResponse<String> response = facade.predict(Bodies.predict(640, 480, "cat").toString());

        assertError(response, 503, "no worker is READY");
    }

    @Test
    void aBodyDeclaredOverTheLimitGets413() {
        byte[] huge = overTheBodyLimit();

        HttpResponse<String> response = facade.send(HttpRequest.newBuilder(facade.uri("/predict"))
                .POST(HttpRequest.BodyPublishers.ofByteArray(huge)));

        assertError(response, 413, "the limit is");
    }

    /**
     * The server refuses the declared size at once, but reads the rest of the body before it closes: a client that
     * sends its body only after a pause (as a loaded machine may schedule it) still writes into an open connection
     * and reads the 413, where a socket closed with the body unread would reset the connection under it.
     */
    @Test
    void aTooLargeBodyIsReadBeforeTheConnectionClosesSoItsClientGetsThe413() throws Exception {
        byte[] huge = overTheBodyLimit();

        String response = exchangeOnASocket(predictHead(KEY, huge.length, false), huge);

        assertTrue(response.startsWith("HTTP/1.1 413"), response);
        assertTrue(response.contains("the limit is"), response);
    }

    @Test
    void theJdkClientAskingFirstGetsThe413() {
        byte[] huge = overTheBodyLimit();

        HttpResponse<String> response = facade.send(HttpRequest.newBuilder(facade.uri("/predict")).expectContinue(true)
                .POST(HttpRequest.BodyPublishers.ofByteArray(huge)));

        assertError(response, 413, "the limit is");
    }

    /**
     * A client that asks first ({@code Expect: 100-continue}) with a body over the limit is told to go on, and the
     * server reads what it sends before it answers 413 and closes, so a client that sends only after a pause still
     * writes into an open connection (the JDK 17 HttpClient above cannot take a 413 in place of the 100). A body
     * declared beyond what the server would read is refused at once: no 100 asks for it.
     */
    @Test
    void aClientThatAsksFirstIsToldToGoOnAndItsBodyReadBeforeThe413() throws Exception {
        byte[] huge = overTheBodyLimit();
        long beyondWhatIsRead = (long) huge.length * 5;

        String readFirst = exchangeOnASocket(predictHead(KEY, huge.length, true), huge);
        String refusedAtOnce = exchangeOnASocket(predictHead(KEY, beyondWhatIsRead, true), null);

        assertTrue(readFirst.startsWith("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 413"), readFirst);
        assertTrue(readFirst.contains("the limit is"), readFirst);
        assertTrue(refusedAtOnce.startsWith("HTTP/1.1 413"), refusedAtOnce);
        assertTrue(refusedAtOnce.contains("the limit is"), refusedAtOnce);
    }

    private static String predictHead(String key, long contentLength, boolean askFirst) {
        URI predict = facade.uri("/predict");
        return "POST /predict HTTP/1.1\r\nHost: " + predict.getHost() + "\r\nAuthorization: Bearer " + key
                + "\r\nContent-Type: application/json\r\nContent-Length: " + contentLength
                + (askFirst ? "\r\nExpect: 100-continue" : "") + "\r\n\r\n";
    }

    /**
     * Sends a request head on a plain socket, then, after a pause (as a loaded machine may schedule a client), the
     * body if there is one, and reads everything the server sends until it closes the connection.
     */
    private static String exchangeOnASocket(String head, byte[] bodyAfterAPause) throws Exception {
        URI predict = facade.uri("/predict");
        try (Socket socket = new Socket(predict.getHost(), predict.getPort())) {
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            out.write(head.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            if (bodyAfterAPause != null) {
                Thread.sleep(500);
                out.write(bodyAfterAPause);
                out.flush();
            }
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void aChunkedBodyGrowingOverTheLimitGets413() {
        byte[] huge = overTheBodyLimit();

        HttpResponse<String> response = facade.send(HttpRequest.newBuilder(facade.uri("/predict"))
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(huge))));

        assertError(response, 413, "the limit is");
    }

    /** JSON whitespace one byte over the limit: a base64 image of a full record plus 64 KiB of JSON. */
    private static byte[] overTheBodyLimit() {
        byte[] body = new byte[MAX_MESSAGE_BYTES * 4 / 3 + 64 * 1024 + 1];
        Arrays.fill(body, (byte) ' ');
        return body;
    }

    @Test
    void everyRouteButHealthNeedsAnAcceptedBearerToken() {
        for (String path : new String[] {"/info", "/v1/models", "/metrics", "/openapi.json"}) {
            HttpResponse<String> none = FacadeHarness.sendRaw(HttpRequest.newBuilder(facade.uri(path)).build());
            assertError(none, 401, "a bearer token is required");
            assertEquals("Bearer", none.headers().firstValue("WWW-Authenticate").orElseThrow());
        }
        HttpResponse<String> wrong = FacadeHarness.sendRaw(HttpRequest.newBuilder(facade.uri("/predict"))
                .header("Authorization", "Bearer secret-key-3")
                .POST(HttpRequest.BodyPublishers.ofString(Bodies.predict(64, 64, "cat").toString())).build());
        assertError(wrong, 401, "not accepted");
        HttpResponse<String> second = FacadeHarness.sendRaw(HttpRequest.newBuilder(facade.uri("/v1/models"))
                .header("Authorization", "Bearer secret-key-2").build());
        assertEquals(200, second.statusCode());
        HttpResponse<String> health = FacadeHarness.sendRaw(HttpRequest.newBuilder(facade.uri("/health")).build());
        assertEquals(503, health.statusCode(), "open, and starting without workers");
        assertEquals("starting", json(health).get("status").asText());
    }

    @Test
    void unknownRoutesAndMethodsAnswerJsonErrors() {
        assertError(facade.get("/nowhere"), 404, "no route GET /nowhere");
        assertError(facade.get("/predict"), 405, "GET is not allowed on /predict");
    }

    static void assertError(HttpResponse<String> response, int status, String detailPart) {
        assertEquals(status, response.statusCode(), response.body());
        JsonNode body = json(response);
        assertTrue(body.get("error").isTextual(), response.body());
        assertTrue(body.get("detail").asText().contains(detailPart),
                "detail should contain '" + detailPart + "': " + response.body());
    }
}
