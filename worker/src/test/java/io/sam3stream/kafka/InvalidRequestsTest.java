package io.sam3stream.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sam3stream.avro.ErrorCode;
import io.sam3stream.avro.Prompt;
import io.sam3stream.avro.SegmentationRequest;
import io.sam3stream.avro.SegmentationResult;
import io.sam3stream.avro.Status;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Requests that decode but cannot be served: each gets exactly one ERROR result with the HTTP API's code. */
@ExtendWith(KafkaTestStack.class)
class InvalidRequestsTest {

    private static final Duration RESULTS_TIMEOUT = Duration.ofSeconds(90);

    /** Small enough that thirty uncompressed RLE masks of a 1000-pixel-wide image do not fit one record. */
    private static final int MAX_MESSAGE_BYTES = 64 * 1024;

    @TempDir
    static Path imageRoot;

    private static RunningWorker worker;

    @BeforeAll
    static void startWorker() throws Exception {
        Map<String, String> env = KafkaTestStack.workerEnvironment("invalid");
        env.put("SAM3_IMAGE_ROOT", imageRoot.toString());
        env.put("SAM3_MAX_PROMPTS", "3");
        env.put("SAM3_MAX_SIDE", "1024");
        env.put("SAM3_MAX_MESSAGE_BYTES", Integer.toString(MAX_MESSAGE_BYTES));
        worker = RunningWorker.start(env);
    }

    @AfterAll
    static void stopWorker() {
        worker.close();
    }

    /** A request and the error it must get. */
    private record Case(SegmentationRequest request, ErrorCode code, String messagePart) {}

    @Test
    void eachInvalidRequestGetsOneErrorResultWithItsCodeAndTheWorkerGoesOn() throws Exception {
        byte[] image = TestRequests.goldenImage();
        Path outside = Files.write(imageRoot.getParent().resolve("outside-" + System.nanoTime() + ".png"), image);
        Path inside = Files.write(imageRoot.resolve("inside.png"), image);
        Path large = Files.write(imageRoot.resolve("large.png"), TestRequests.goldenImage(1000, 750));
        List<Case> cases = List.of(
                new Case(TestRequests.request("bad-image", "not a png".getBytes(StandardCharsets.UTF_8), "cat")
                        .build(), ErrorCode.BAD_REQUEST, ""),
                new Case(TestRequests.request("empty-prompt", image, " ").build(), ErrorCode.BAD_REQUEST, "empty"),
                new Case(TestRequests.request("no-prompt", image).build(), ErrorCode.BAD_REQUEST, "prompt"),
                new Case(TestRequests.request("too-many-prompts", image, "a", "b", "c", "d").build(),
                        ErrorCode.BAD_REQUEST, "SAM3_MAX_PROMPTS"),
                new Case(TestRequests.request("side-too-large", TestRequests.png(1025, 4), "cat").build(),
                        ErrorCode.BAD_REQUEST, "1025"),
                new Case(TestRequests.request("threshold-out-of-range", image, "cat").setThreshold(1.5f).build(),
                        ErrorCode.UNPROCESSABLE_ENTITY, "threshold"),
                new Case(TestRequests.request("no-instances", image, "cat").setMaxInstances(0).build(),
                        ErrorCode.UNPROCESSABLE_ENTITY, "max_instances"),
                new Case(TestRequests.request("past-deadline", image, "cat")
                        .setDeadline(Instant.now().minusSeconds(1)).build(), ErrorCode.DEADLINE_EXCEEDED, "deadline"),
                new Case(TestRequests.request("uri-outside-root", image, "cat").setImage(null)
                        .setImageUri(outside.toUri().toString()).build(), ErrorCode.BAD_REQUEST, "outside"),
                new Case(TestRequests.request("uri-other-scheme", image, "cat").setImage(null)
                        .setImageUri("https://example.com/cat.png").build(), ErrorCode.BAD_REQUEST, "scheme"),
                new Case(TestRequests.request("two-images", image, "cat").setImageUri(inside.toUri().toString())
                        .build(), ErrorCode.BAD_REQUEST, "exactly one"),
                new Case(TestRequests.request("box-upside-down", image, "cat").setPrompts(List.of(new Prompt("cat",
                        List.of(new io.sam3stream.avro.ExemplarBox(new io.sam3stream.avro.Box(50f, 50f, 10f, 10f),
                                io.sam3stream.avro.BoxLabel.positive))))).build(),
                        ErrorCode.UNPROCESSABLE_ENTITY, "x1 > x0"),
                new Case(TestRequests.request("result-too-large", image, "cat", "a red car", "person wearing a hat")
                        .setImage(null).setImageUri(large.toUri().toString()).setThreshold(0f)
                        .setMaskFormat(io.sam3stream.avro.MaskFormat.rle).build(),
                        ErrorCode.PAYLOAD_TOO_LARGE, "SAM3_MAX_MESSAGE_BYTES=" + MAX_MESSAGE_BYTES));
        SegmentationRequest claimCheck = TestRequests.request("claim-check-inside-root", image, "cat").setImage(null)
                .setImageUri(inside.toUri().toString()).build();

        try (TestClients.Requests requests = new TestClients.Requests(worker.config().requestsTopic())) {
            cases.forEach(c -> requests.send(c.request()));
            requests.send(claimCheck);
        }

        int expected = cases.size() + 1;
        List<SegmentationResult> results = TestRequests.results(
                TestClients.readCommitted(worker.config().resultsTopic(), expected, RESULTS_TIMEOUT));
        assertEquals(expected, results.size());
        Map<String, SegmentationResult> byId = new LinkedHashMap<>(TestRequests.byRequestId(results));
        for (Case c : cases) {
            SegmentationResult r = byId.get(c.request().getRequestId());
            assertNotNull(r, c.request().getRequestId());
            assertEquals(Status.ERROR, r.getStatus(), r.toString());
            assertEquals(c.code(), r.getError().getCode(), r.toString());
            assertTrue(r.getError().getMessage().contains(c.messagePart()), r.getError().getMessage());
            assertEquals(List.of(), r.getResults());
            assertEquals(worker.config().workerId(), r.getWorkerId());
        }
        assertEquals(Status.OK, byId.get("claim-check-inside-root").getStatus(), "the worker goes on");
    }
}
