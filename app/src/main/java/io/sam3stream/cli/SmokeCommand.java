package io.sam3stream.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sam3stream.config.Settings;
import io.sam3stream.engine.EncodedMask;
import io.sam3stream.engine.EngineFactory;
import io.sam3stream.engine.MaskFormat;
import io.sam3stream.engine.ModelSource;
import io.sam3stream.engine.PromptSpec;
import io.sam3stream.engine.Sam3Segmenter;
import io.sam3stream.engine.SegmentRequest;
import io.sam3stream.engine.SegmentResponse;
import io.sam3stream.imaging.ImageDecoder;
import io.sam3stream.imaging.ImageLimits;
import io.sam3stream.imaging.MaskDecoding;
import io.sam3stream.imaging.OverlayInstance;
import io.sam3stream.imaging.OverlayRenderer;
import io.sam3stream.imaging.RgbImage;
import io.sam3stream.smoke.SmokeChecks;
import io.sam3stream.smoke.SmokeInstance;
import io.sam3stream.worker.ModelOptions;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code sam3 smoke}: the reference deployment's smoke test against a running service ({@code --url}) or an
 * in-process engine ({@code --local}); prints its PASS/FAIL line and exits 1 on FAIL.
 */
@Command(name = "smoke", mixinStandardHelpOptions = true,
        description = {"Posts one image with one prompt and checks the answer: /health ok (with --url), >= 1 instance,"
                + " top score > 0.5, top mask covering 0.1%%..60%% of the image, >= 95%% of its pixels inside its box,"
                + " box inside the image. Prints the PASS/FAIL line; exits 1 on FAIL."})
public final class SmokeCommand implements Callable<Integer> {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Spec
    private CommandSpec spec;

    @ArgGroup(exclusive = true, multiplicity = "1")
    private Target target;

    private static final class Target {
        @Option(names = "--url", paramLabel = "<url>", description = "A running facade, e.g. http://127.0.0.1:20000.")
        private URI url;

        @Option(names = "--local", description = "Run the engine in this process instead (weights as for predict).")
        private boolean local;
    }

    @Mixin
    private ModelOptions model;

    @Option(names = "--image", paramLabel = "<file>", defaultValue = "media/rocket.jpg",
            description = "Image to send (default: ${DEFAULT-VALUE}).")
    private Path image;

    @Option(names = "--prompt", defaultValue = "rocket", description = "Prompt to ask (default: ${DEFAULT-VALUE}).")
    private String prompt;

    @Option(names = "--out", paramLabel = "<overlay.png>", description = "Write an overlay of the answer here.")
    private Path out;

    @Option(names = "--timeout", defaultValue = "600", paramLabel = "<seconds>",
            description = "HTTP timeout (default: ${DEFAULT-VALUE} s).")
    private int timeoutSeconds;

    /** What the service (or the engine in this process) answered; {@code demoModel} when it serves generated weights. */
    private record Answer(int width, int height, boolean healthOk, List<SmokeInstance> instances, double forwardMs,
            double totalMs, boolean demoModel) {}

    @Override
    public Integer call() throws IOException, InterruptedException {
        byte[] bytes = Files.readAllBytes(image);
        Answer answer = target.local ? askLocally(bytes) : askOverHttp(bytes);
        SmokeChecks.Verdict verdict = SmokeChecks.judge(prompt, answer.width(), answer.height(), answer.healthOk(),
                answer.instances(), answer.forwardMs(), answer.totalMs());
        PrintWriter w = spec.commandLine().getOut();
        w.println(verdict.line());
        w.flush();
        if (!verdict.passed() && answer.demoModel()) {
            // the checks judge a trained model's answer; a newcomer's first run (./sam3 dev) serves generated weights
            spec.commandLine().getErr().println("note: the service runs the demo model (generated weights; /health"
                    + " reports \"weights\": {\"demo\": true}), whose masks and scores are not meaningful, so these"
                    + " checks are expected to fail; the request path itself answered. Serve the facebook/sam3 weights"
                    + " (README, \"The weights\") for a verdict on the model.");
        }
        if (out != null) {
            RgbImage picture = new ImageDecoder(ImageLimits.DEFAULT).decode(bytes);
            List<OverlayInstance> overlay = answer.instances().stream()
                    .map(i -> new OverlayInstance(i.mask(), i.boxXyxy(), i.score(), prompt)).toList();
            Files.write(out, OverlayRenderer.renderPng(picture, overlay));
        }
        return verdict.passed() ? 0 : 1;
    }

    private Answer askLocally(byte[] bytes) {
        Settings settings = Settings.fromEnvironment();
        ModelSource source = model.open(settings);
        try (Sam3Segmenter engine = EngineFactory.create(settings, source,
                line -> spec.commandLine().getErr().println(line))) {
            SegmentResponse r = engine.segment(new SegmentRequest(bytes, List.of(PromptSpec.text(prompt)),
                    SegmentRequest.DEFAULT_THRESHOLD, SegmentRequest.DEFAULT_MAX_INSTANCES, MaskFormat.PNG));
            List<SmokeInstance> instances = new ArrayList<>();
            for (SegmentResponse.Instance i : r.results().get(0).instances()) {
                instances.add(new SmokeInstance(i.score(), i.boxXyxy(), MaskDecoding.fromPng(((EncodedMask.Png) i.mask()).bytes())));
            }
            return new Answer(r.width(), r.height(), true, instances, r.timings().forward(), r.timings().total(),
                    source.isDemo());
        }
    }

    private Answer askOverHttp(byte[] bytes) throws IOException, InterruptedException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        HttpResponse<String> health = http.send(HttpRequest.newBuilder(target.url.resolve("/health"))
                .timeout(Duration.ofSeconds(30)).GET().build(), HttpResponse.BodyHandlers.ofString());
        JsonNode healthJson = health.statusCode() == 200 ? JSON.readTree(health.body()) : JSON.missingNode();
        boolean healthOk = "ok".equals(healthJson.path("status").asText());
        boolean demoModel = healthJson.path("weights").path("demo").asBoolean(false);
        String body = JSON.writeValueAsString(Map.of("image", Base64.getEncoder().encodeToString(bytes),
                "prompts", List.of(prompt), "mask_format", "png"));
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(target.url.resolve("/predict"))
                .timeout(Duration.ofSeconds(timeoutSeconds)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        JsonNode json = JSON.readTree(response.body());
        if (response.statusCode() != 200) {
            throw new IOException("POST /predict answered " + response.statusCode() + ": " + response.body());
        }
        List<SmokeInstance> instances = new ArrayList<>();
        for (JsonNode i : json.path("results").path(0).path("instances")) {
            JsonNode b = i.path("box_xyxy");
            float[] box = {(float) b.path(0).asDouble(), (float) b.path(1).asDouble(), (float) b.path(2).asDouble(),
                (float) b.path(3).asDouble()};
            instances.add(new SmokeInstance((float) i.path("score").asDouble(), box,
                    MaskDecoding.fromPng(Base64.getDecoder().decode(i.path("mask_png").asText()))));
        }
        JsonNode timing = json.path("timing_ms");
        return new Answer(json.path("width").asInt(), json.path("height").asInt(), healthOk, instances,
                timing.path("forward").asDouble(), timing.path("total").asDouble(), demoModel);
    }
}
