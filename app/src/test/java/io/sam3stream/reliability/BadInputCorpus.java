package io.sam3stream.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sam3stream.avro.ErrorCode;
import io.sam3stream.avro.SegmentationRequest;
import io.sam3stream.avro.SegmentationResult;
import io.sam3stream.avro.Status;
import io.sam3stream.avro.WorkerLimits;
import io.sam3stream.avro.WorkerState;
import io.sam3stream.avro.WorkerStatus;
import io.sam3stream.kafka.KafkaTestStack;
import io.sam3stream.kafka.TestRequests;
import io.sam3stream.schemas.Topics.DeadLetterHeaders;
import io.sam3stream.schemas.serde.AvroSerializer;
import io.sam3stream.schemas.serde.UndecodableRecordException.Reason;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Named;

/**
 * The bad-input corpus: every class of malformed, hostile or merely unusual input, named, with the outcome the
 * service documents for it (docs/RELIABILITY.md): an HTTP status and error detail, an {@code ERROR} result with its
 * code, a dead letter with its reason, or a refusal by the broker. Classes the service accepts (a 1×1 image, a
 * 16-bit PNG, ...) must be served like any other image.
 */
final class BadInputCorpus {

    /** The SAM3_MAX_PROMPTS default the corpus runs with. */
    private static final int MAX_PROMPTS = 4;

    private BadInputCorpus() {}

    static Stream<Named<BadInput>> all() {
        return Stream.of(images(), avroImages(), prompts(), avroPrompts(), numbers(), avroNumbers(), json(),
                avroRecords(), httpRequests()).flatMap(s -> s);
    }

    private static Stream<Named<BadInput>> images() {
        return Stream.of(
                http("image: zero bytes", PredictBodies.of(new byte[0], "cat"), 400, "not a PNG or JPEG"),
                http("image: random bytes", PredictBodies.of(CorpusImages.randomBytes(4096), "cat"), 400,
                        "not a PNG or JPEG"),
                http("image: PNG cut in half", PredictBodies.of(CorpusImages.truncated(CorpusImages.goldenPng(), 0.5),
                        "cat"), 400, "truncated"),
                http("image: JPEG cut in half", PredictBodies.of(
                        CorpusImages.truncated(CorpusImages.goldenJpeg(), 0.5), "cat"), 400, "truncated"),
                http("image: PNG with a bad CRC", PredictBodies.of(CorpusImages.goldenPngWithBadIdatCrc(), "cat"),
                        400, "CRC"),
                served("image: 1x1 PNG", PredictBodies.of(TestRequests.png(1, 1), "cat"), 1, 1),
                http("image: header declaring 0x480", PredictBodies.of(CorpusImages.pngDeclaring(0, 480), "cat"),
                        400, "zero side"),
                http("image: header declaring 100000x100000 (decompression bomb)",
                        PredictBodies.of(CorpusImages.pngDeclaring(100_000, 100_000), "cat"), 400,
                        "over SAM3_MAX_SIDE=4096"),
                served("image: 16-bit RGB PNG", PredictBodies.of(CorpusImages.fixture("rgb16.png"), "cat"), 14, 9),
                served("image: 16-bit grey and alpha PNG", PredictBodies.of(CorpusImages.fixture("graya16.png"),
                        "cat"), 7, 10),
                served("image: palette PNG", PredictBodies.of(CorpusImages.fixture("palette8.png"), "cat"), 11, 10),
                served("image: Adam7-interlaced PNG", PredictBodies.of(CorpusImages.fixture("rgb8_interlaced.png"),
                        "cat"), 11, 13),
                served("image: animated PNG (first frame)", PredictBodies.of(CorpusImages.animatedGoldenPng(),
                        "cat"), 200, 150),
                http("image: CMYK JPEG", PredictBodies.of(CorpusImages.fixture("jpeg_cmyk.jpg"), "cat"), 400, "CMYK"),
                served("image: EXIF-rotated JPEG (stored grid, not rotated)",
                        PredictBodies.of(CorpusImages.fixture("jpeg_exif_rotated.jpg"), "cat"), 45, 37),
                served("image: progressive JPEG", PredictBodies.of(CorpusImages.fixture("jpeg_progressive.jpg"),
                        "cat"), 45, 37),
                http("image: GIF", PredictBodies.of(
                        "GIF89a\u0001\u0000\u0001\u0000".getBytes(StandardCharsets.US_ASCII), "cat"), 400,
                        "not a PNG or JPEG"),
                http("image: not base64", withField(PredictBodies.valid("cat"), "image", "@@ not base64 @@"), 400,
                        "not valid base64"),
                served("image: base64 wrapped at 76 columns", withField(PredictBodies.valid("cat"), "image",
                        Base64.getMimeEncoder().encodeToString(CorpusImages.goldenPng())), 200, 150));
    }

    private static Stream<Named<BadInput>> avroImages() {
        return Stream.of(
                avroError("avro image: header declaring 0x480",
                        id -> TestRequests.request(id, CorpusImages.pngDeclaring(0, 480), "cat"),
                        ErrorCode.BAD_REQUEST, "zero"),
                avroError("avro image: header declaring 100000x100000 (decompression bomb)",
                        id -> TestRequests.request(id, CorpusImages.pngDeclaring(100_000, 100_000), "cat"),
                        ErrorCode.BAD_REQUEST, "100000"),
                avroError("avro image: neither image nor image_uri",
                        id -> TestRequests.request(id, new byte[0], "cat").setImage(null),
                        ErrorCode.BAD_REQUEST, "exactly one"));
    }

    private static Stream<Named<BadInput>> prompts() {
        return Stream.of(
                http("prompt: empty", PredictBodies.valid(""), 400, "empty prompt"),
                http("prompt: whitespace only", PredictBodies.valid(" \t\n "), 400, "empty prompt"),
                http("prompts: five, one over SAM3_MAX_PROMPTS", PredictBodies.valid("a", "b", "c", "d", "e"), 400,
                        "more than SAM3_MAX_PROMPTS=" + MAX_PROMPTS),
                http("prompt: 10,000 characters", PredictBodies.valid("cat ".repeat(2500)), 422, "at most 1000"),
                served("prompt: control characters", PredictBodies.valid("\u0000c\u0007a\u001bt\u007f"), 200, 150),
                served("prompt: emoji and right-to-left script",
                        PredictBodies.valid("\uD83D\uDC08 \u05D7\u05EA\u05D5\u05DC"), 200, 150),
                http("prompts: empty list", PredictBodies.valid(), 400, "at least one prompt"),
                http("prompts: a number among strings", withRaw(PredictBodies.valid("cat"), "prompts", "[\"cat\", 7]"),
                        422, "prompts[1]"));
    }

    private static Stream<Named<BadInput>> avroPrompts() {
        return Stream.of(
                named("avro prompt: invalid UTF-8", (service, id) -> {
                    byte[] valid = service.requests().encode(TestRequests.request(id, CorpusImages.goldenPng(),
                            "c\u00e9t").build());
                    byte[] broken = replace(valid, "c\u00e9t".getBytes(StandardCharsets.UTF_8),
                            new byte[] {'c', (byte) 0xc3, (byte) 0x28, 't'});
                    service.requests().sendRaw(key(id), broken, new RecordHeaders());
                    assertDeadLetter(service, id, Reason.MALFORMED_BODY);
                }),
                avroError("avro prompt: 10,000 characters",
                        id -> TestRequests.request(id, CorpusImages.goldenPng(), "cat ".repeat(2500)),
                        ErrorCode.UNPROCESSABLE_ENTITY, "at most 1000"),
                avroError("avro prompts: five, one over SAM3_MAX_PROMPTS",
                        id -> TestRequests.request(id, CorpusImages.goldenPng(), "a", "b", "c", "d", "e"),
                        ErrorCode.BAD_REQUEST, "SAM3_MAX_PROMPTS"),
                avroError("avro prompt: whitespace only",
                        id -> TestRequests.request(id, CorpusImages.goldenPng(), "\t "),
                        ErrorCode.BAD_REQUEST, "empty"));
    }

    private static Stream<Named<BadInput>> numbers() {
        return Stream.of(
                http("threshold: NaN", withRaw(PredictBodies.valid("cat"), "threshold", "NaN"), 422,
                        "malformed JSON"),
                http("threshold: infinity (1e999)", withRaw(PredictBodies.valid("cat"), "threshold", "1e999"), 422,
                        "threshold: must be a number in [0, 1]"),
                http("threshold: negative", withRaw(PredictBodies.valid("cat"), "threshold", "-0.5"), 422,
                        "threshold: must be a number in [0, 1]"),
                http("max_instances: 0", withRaw(PredictBodies.valid("cat"), "max_instances", "0"), 422,
                        "max_instances: must be an integer in [1, 200]"),
                http("max_instances: 201", withRaw(PredictBodies.valid("cat"), "max_instances", "201"), 422,
                        "max_instances: must be an integer in [1, 200]"),
                http("max_instances: 10^30", withRaw(PredictBodies.valid("cat"), "max_instances",
                        "1000000000000000000000000000000"), 422, "max_instances: must be an integer in [1, 200]"));
    }

    private static Stream<Named<BadInput>> avroNumbers() {
        return Stream.of(
                avroError("avro threshold: NaN",
                        id -> TestRequests.request(id, CorpusImages.goldenPng(), "cat").setThreshold(Float.NaN),
                        ErrorCode.UNPROCESSABLE_ENTITY, "threshold"),
                avroError("avro threshold: infinity",
                        id -> TestRequests.request(id, CorpusImages.goldenPng(), "cat")
                                .setThreshold(Float.POSITIVE_INFINITY),
                        ErrorCode.UNPROCESSABLE_ENTITY, "threshold"),
                avroError("avro threshold: negative",
                        id -> TestRequests.request(id, CorpusImages.goldenPng(), "cat").setThreshold(-0.5f),
                        ErrorCode.UNPROCESSABLE_ENTITY, "threshold"),
                avroError("avro max_instances: 0",
                        id -> TestRequests.request(id, CorpusImages.goldenPng(), "cat").setMaxInstances(0),
                        ErrorCode.UNPROCESSABLE_ENTITY, "max_instances"),
                avroError("avro max_instances: 201",
                        id -> TestRequests.request(id, CorpusImages.goldenPng(), "cat").setMaxInstances(201),
                        ErrorCode.UNPROCESSABLE_ENTITY, "max_instances"));
    }

    private static Stream<Named<BadInput>> json() {
        String valid = PredictBodies.valid("cat").toString();
        return Stream.of(
                http("json: malformed (object not closed)", valid.substring(0, valid.length() - 1), 422,
                        "malformed JSON"),
                http("json: wrong type (image is a number)", withRaw(PredictBodies.valid("cat"), "image", "12"), 422,
                        "image: must be a string"),
                http("json: huge array (100,000 prompts)", PredictBodies.valid(manyPrompts(100_000)), 400,
                        "more than SAM3_MAX_PROMPTS"),
                http("json: duplicate keys", "{\"prompts\": [\"cat\"], \"image\": \"x\", \"image\": \"y\"}", 422,
                        "Duplicate field 'image'"),
                http("json: nested 100,000 deep", withRaw(PredictBodies.valid("cat"), "metadata",
                        "[".repeat(100_000) + "]".repeat(100_000)), 422, "malformed JSON"),
                http("json: top-level array", "[" + valid + "]", 422, "must be an object"),
                http("json: trailing garbage", valid + " {}", 422, "malformed JSON"),
                httpBytes("json: invalid UTF-8", "application/json",
                        replace(PredictBodies.valid("c\u00e9t").toString().getBytes(StandardCharsets.UTF_8),
                                "c\u00e9t".getBytes(StandardCharsets.UTF_8),
                                new byte[] {'c', (byte) 0xc3, (byte) 0x28, 't'}),
                        422, "malformed JSON"),
                http("json: the literal null", "null", 422, "must be an object"));
    }

    private static Stream<Named<BadInput>> avroRecords() {
        return Stream.of(
                deadLetter("avro: wrong magic byte", (service, id) -> withFirstByte(validRecord(service, id), 1),
                        Reason.WRONG_MAGIC_BYTE),
                deadLetter("avro: unknown schema id", (service, id) -> {
                    byte[] record = validRecord(service, id);
                    record[1] = 0x7f; // schema id 0x7f0000xx: never registered
                    return record;
                }, Reason.UNKNOWN_SCHEMA_ID),
                deadLetter("avro: truncated body", (service, id) -> CorpusImages.truncated(validRecord(service, id),
                        0.5), Reason.TRUNCATED_BODY),
                deadLetter("avro: bytes after the record", (service, id) -> {
                    byte[] record = validRecord(service, id);
                    return Arrays.copyOf(record, record.length + 7);
                }, Reason.MALFORMED_BODY),
                deadLetter("avro: a record of another schema (WorkerStatus)", (service, id) ->
                        new AvroSerializer<WorkerStatus>(KafkaTestStack.registryClient(), true)
                                .serialize(service.stack().worker().config().workersTopic(), workerStatus()),
                        Reason.INCOMPATIBLE_SCHEMA),
                deadLetter("avro: empty value", (service, id) -> new byte[0], Reason.TRUNCATED_HEADER),
                deadLetter("avro: tombstone (null value)", (service, id) -> null, Reason.TRUNCATED_HEADER),
                named("avro: a record 20 MiB over the limit is refused by the broker", (service, id) -> {
                    byte[] huge = new byte[KafkaTestStack.MAX_MESSAGE_BYTES + (20 << 20)];
                    try (KafkaProducer<byte[], byte[]> producer = unlimitedProducer()) {
                        ExecutionException refused = assertThrows(ExecutionException.class, () -> producer.send(
                                new ProducerRecord<>(service.stack().worker().config().requestsTopic(), key(id), huge))
                                .get(60, TimeUnit.SECONDS));
                        assertInstanceOf(RecordTooLargeException.class, refused.getCause());
                    }
                }));
    }

    private static Stream<Named<BadInput>> httpRequests() {
        return Stream.of(
                named("http: no body", (service, id) -> assertAnswer(service.http().send(service.http()
                        .request("/predict").header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.noBody()).build()), 422, "empty body")),
                named("http: wrong content type (text/plain)", (service, id) -> assertAnswer(service.http().send(
                        service.http().request("/predict").header("Content-Type", "text/plain")
                                .POST(HttpRequest.BodyPublishers.ofString(PredictBodies.valid("cat").toString()))
                                .build()), 422, "application/json")),
                named("http: 100 MB body, declared", (service, id) -> {
                    RawHttp.Reply reply = RawHttp.upload(service.port(), service.token(), 100_000_000L, false);
                    assertEquals(413, reply.status(), reply.statusLine());
                }),
                named("http: 100 MB body, chunked", (service, id) -> {
                    RawHttp.Reply reply = RawHttp.upload(service.port(), service.token(), 100_000_000L, true);
                    assertEquals(413, reply.status(), reply.statusLine());
                }),
                named("http: slow-loris body (a byte every 200 ms)", (service, id) -> {
                    RawHttp.Reply reply = RawHttp.trickle(service.port(),
                            RawHttp.predictHead(service.port(), service.token(), 1_000_000), new byte[] {'{'},
                            Duration.ofMillis(200), Duration.ofSeconds(90));
                    assertEquals(408, reply.status(), reply.statusLine() + " after " + reply.elapsed());
                }),
                named("http: body shorter than its Content-Length", (service, id) -> {
                    RawHttp.Reply reply = RawHttp.halfSent(service.port(),
                            RawHttp.predictHead(service.port(), service.token(), 10_000), "{\"image\"".getBytes(
                                    StandardCharsets.US_ASCII), Duration.ofSeconds(60));
                    assertEquals(400, reply.status(), reply.statusLine());
                }),
                named("http: GET /predict", (service, id) -> assertAnswer(service.http().get("/predict"), 405,
                        "GET is not allowed")),
                named("http: unknown route", (service, id) -> assertAnswer(service.http().get("/predict/v2"), 404,
                        "no route")),
                named("http: 64 KiB header", (service, id) -> {
                    HttpCalls.Answer answer = service.http().send(service.http().request("/predict")
                            .header("X-Padding", "x".repeat(64 * 1024))
                            .POST(HttpRequest.BodyPublishers.ofString(PredictBodies.valid("cat").toString())).build());
                    assertEquals(431, answer.status(), answer.toString());
                }));
    }

    // ---- expectations

    /** An HTTP body that must be answered with {@code status} and a detail containing {@code detail}. */
    private static Named<BadInput> http(String name, Object body, int status, String detail) {
        return named(name, (service, id) -> assertAnswer(service.http().predict(body.toString()), status, detail));
    }

    private static Named<BadInput> httpBytes(String name, String contentType, byte[] body, int status,
            String detail) {
        return named(name, (service, id) -> assertAnswer(service.http().send(service.http().request("/predict")
                .header("Content-Type", contentType).POST(HttpRequest.BodyPublishers.ofByteArray(body)).build()),
                status, detail));
    }

    /** An HTTP body that must be served: 200 with the image's size and one result per prompt. */
    private static Named<BadInput> served(String name, ObjectNode body, int width, int height) {
        return named(name, (service, id) -> {
            HttpCalls.Answer answer = service.http().predict(body.toString());
            assertEquals(200, answer.status(), answer.toString());
            JsonNode json = answer.json();
            assertEquals(width, json.get("width").asInt(), answer.toString());
            assertEquals(height, json.get("height").asInt(), answer.toString());
            assertEquals(body.get("prompts").size(), json.get("results").size(), answer.toString());
        });
    }

    /** An Avro request that must be answered with one ERROR result of {@code code}. */
    private static Named<BadInput> avroError(String name, Function<String, SegmentationRequest.Builder> request,
            ErrorCode code, String messagePart) {
        return named(name, (service, id) -> {
            service.requests().send(request.apply(id).build());
            SegmentationResult result = service.awaitResult(id);
            assertEquals(Status.ERROR, result.getStatus(), result.toString());
            assertEquals(code, result.getError().getCode(), result.toString());
            assertTrue(result.getError().getMessage().contains(messagePart),
                    "'" + messagePart + "' in " + result.getError().getMessage());
        });
    }

    /** A record value that must end up, unchanged, in the dead-letter topic with {@code reason}. */
    private static Named<BadInput> deadLetter(String name, RecordValue value, Reason reason) {
        return named(name, (service, id) -> {
            byte[] bytes = value.of(service, id);
            service.requests().sendRaw(key(id), bytes, new RecordHeaders());
            ConsumerRecord<byte[], byte[]> dead = assertDeadLetter(service, id, reason);
            assertTrue(Arrays.equals(bytes, dead.value()), "the dead letter keeps the original bytes");
        });
    }

    private static ConsumerRecord<byte[], byte[]> assertDeadLetter(CorpusService service, String id, Reason reason)
            throws InterruptedException {
        ConsumerRecord<byte[], byte[]> dead = service.awaitOutcome(id, service.deadLetterTopic());
        String message = new String(dead.headers().lastHeader(DeadLetterHeaders.EXCEPTION_MESSAGE).value(),
                StandardCharsets.UTF_8);
        assertTrue(message.startsWith(reason.name()), message);
        return dead;
    }

    private static void assertAnswer(HttpCalls.Answer answer, int status, String detail) {
        assertEquals(status, answer.status(), answer.toString());
        assertNotNull(answer.json().get("error"), answer.toString());
        assertTrue(answer.detail().contains(detail), "'" + detail + "' in " + answer);
    }

    private static Named<BadInput> named(String name, BadInput input) {
        return Named.of(name, input);
    }

    // ---- inputs

    /** Builds a dead-letter candidate's value for one id. */
    @FunctionalInterface
    private interface RecordValue {
        byte[] of(CorpusService service, String id);
    }

    private static byte[] validRecord(CorpusService service, String id) {
        return service.requests().encode(TestRequests.request(id, CorpusImages.goldenPng(), "cat").build());
    }

    private static byte[] withFirstByte(byte[] record, int first) {
        byte[] copy = record.clone();
        copy[0] = (byte) first;
        return copy;
    }

    private static byte[] key(String id) {
        return id.getBytes(StandardCharsets.UTF_8);
    }

    private static ObjectNode withField(ObjectNode body, String field, String value) {
        body.put(field, value);
        return body;
    }

    /** The body with {@code field} set to raw JSON text (which may be invalid JSON, like NaN). */
    private static String withRaw(ObjectNode body, String field, String rawJson) {
        body.put(field, "\u0000placeholder");
        return body.toString().replace("\"\\u0000placeholder\"", rawJson);
    }

    private static String[] manyPrompts(int count) {
        String[] prompts = new String[count];
        Arrays.fill(prompts, "cat");
        return prompts;
    }

    private static byte[] replace(byte[] data, byte[] pattern, byte[] replacement) {
        for (int i = 0; i + pattern.length <= data.length; i++) {
            if (Arrays.equals(data, i, i + pattern.length, pattern, 0, pattern.length)) {
                byte[] out = new byte[data.length - pattern.length + replacement.length];
                System.arraycopy(data, 0, out, 0, i);
                System.arraycopy(replacement, 0, out, i, replacement.length);
                System.arraycopy(data, i + pattern.length, out, i + replacement.length,
                        data.length - i - pattern.length);
                return out;
            }
        }
        throw new IllegalArgumentException("pattern not found");
    }

    private static WorkerStatus workerStatus() {
        return WorkerStatus.newBuilder().setWorkerId("not-a-request").setState(WorkerState.READY)
                .setBackend("cpu").setDevice("cpu").setModelRepo("facebook/sam3").setModelRevision("r")
                .setCheckpointPath("/x").setLimits(WorkerLimits.newBuilder().setMaxSide(1).setMaxPixels(1)
                        .setMaxPrompts(1).setMaxMessageBytes(1).build())
                .setRuntime(Map.of()).setSourceCommit(null).setLastForwardMs(null).setHeartbeatIntervalMs(1000)
                .setTimestamp(Instant.now()).build();
    }

    /** A producer whose own size limit is far above the broker's, so that the broker is the one refusing. */
    private static KafkaProducer<byte[], byte[]> unlimitedProducer() {
        Properties p = new Properties();
        p.put("bootstrap.servers", KafkaTestStack.bootstrapServers());
        p.put("max.request.size", Integer.toString(64 << 20));
        p.put("buffer.memory", Long.toString(128L << 20));
        p.put("retries", "0");
        return new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
    }
}
