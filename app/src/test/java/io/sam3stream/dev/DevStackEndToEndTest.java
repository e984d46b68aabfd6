package io.sam3stream.dev;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sam3stream.broker.LoopbackPorts;
import io.sam3stream.config.Settings;
import io.sam3stream.engine.EncodedMask;
import io.sam3stream.engine.EngineFactory;
import io.sam3stream.engine.MaskFormat;
import io.sam3stream.engine.ModelSource;
import io.sam3stream.engine.PromptSpec;
import io.sam3stream.engine.Sam3Segmenter;
import io.sam3stream.engine.SegmentRequest;
import io.sam3stream.engine.SegmentResponse;
import io.sam3stream.testing.TinyGolden;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The one-process stack (embedded broker and registry, the real worker on the tiny golden model, the facade)
 * answers the reference's {@code POST /predict} with exactly what the engine computes directly.
 */
class DevStackEndToEndTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static Path dataDir;
    private static DevStack stack;
    private static Sam3Segmenter direct;
    private static byte[] image;

    @BeforeAll
    static void start() throws Exception {
        dataDir = Files.createTempDirectory("sam3-dev-e2e");
        Settings settings = Settings.from(Map.of("SAM3_PORT", "0", "SAM3_WARMUP_RUNS", "1",
                "SAM3_WORKER_ID", "e2e-worker", "SAM3_PRECISION", "fp32"));
        ModelSource model = ModelSource.checkpoint(TinyGolden.dir().resolve("sam3-tiny.pt"), Optional.empty());
        stack = DevStack.start(settings, model,
                new DevStack.Options("127.0.0.1", dataDir, LoopbackPorts.freePair(), 0, null, null), line -> {});
        direct = EngineFactory.create(settings,
                ModelSource.checkpoint(TinyGolden.dir().resolve("sam3-tiny.pt"), Optional.empty()), line -> {});
        image = Files.readAllBytes(TinyGolden.dir().resolve("image.png"));
    }

    @AfterAll
    static void stop() {
        stack.close();
        direct.close();
    }

    @ParameterizedTest
    @EnumSource(MaskFormat.class)
    void predictOverKafkaEqualsTheEngineDirectly(MaskFormat format) throws Exception {
        String body = JSON.writeValueAsString(Map.of("image", Base64.getEncoder().encodeToString(image),
                "prompts", List.of("cat", "a red car"), "mask_format", format.wireName(), "max_instances", 3));
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + stack.httpPort() + "/predict"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
        JsonNode json = JSON.readTree(response.body());
        SegmentResponse expected = direct.segment(new SegmentRequest(image,
                List.of(PromptSpec.text("cat"), PromptSpec.text("a red car")), 0.5f, 3, format));

        assertEquals(expected.width(), json.get("width").asInt());
        assertEquals(expected.height(), json.get("height").asInt());
        assertEquals(expected.inputSize(), json.get("input_size").asInt());
        assertEquals(format.wireName(), json.get("mask_format").asText());
        for (int p = 0; p < expected.results().size(); p++) {
            SegmentResponse.PromptResult want = expected.results().get(p);
            JsonNode got = json.get("results").get(p);
            assertEquals(want.prompt(), got.get("prompt").asText());
            assertEquals(want.presence(), got.get("presence").floatValue(), 1e-6);
            assertEquals(want.instances().size(), got.get("num_instances").asInt());
            for (int i = 0; i < want.instances().size(); i++) {
                SegmentResponse.Instance w = want.instances().get(i);
                JsonNode g = got.get("instances").get(i);
                assertEquals(w.score(), g.get("score").floatValue(), 1e-6);
                if (format == MaskFormat.NONE) {
                    assertEquals(null, g.get("mask_area"), "mask_format none answers boxes and scores only");
                } else {
                    assertEquals(w.maskArea(), g.get("mask_area").asLong());
                }
                for (int k = 0; k < 4; k++) {
                    assertEquals(w.boxXyxy()[k], g.get("box_xyxy").get(k).floatValue(), 1e-4);
                }
                assertMask(w.mask(), g);
            }
        }
    }

    private static void assertMask(EncodedMask mask, JsonNode instance) {
        if (mask instanceof EncodedMask.Png png) {
            assertArrayEquals(png.bytes(), Base64.getDecoder().decode(instance.get("mask_png").asText()));
        } else if (mask instanceof EncodedMask.Rle rle) {
            JsonNode r = instance.get("mask_rle");
            assertEquals(rle.height(), r.get("size").get(0).asInt());
            int[] counts = new int[r.get("counts").size()];
            for (int i = 0; i < counts.length; i++) {
                counts[i] = r.get("counts").get(i).asInt();
            }
            assertArrayEquals(rle.counts(), counts);
        } else if (mask instanceof EncodedMask.CompressedRle rle) {
            assertEquals(rle.counts(), instance.get("mask_rle").get("counts").asText());
        } else {
            assertEquals(null, instance.get("mask_png"));
            assertEquals(null, instance.get("mask_rle"));
        }
    }

}
