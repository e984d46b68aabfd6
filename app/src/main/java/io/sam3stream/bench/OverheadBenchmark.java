package io.sam3stream.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.sam3stream.broker.LoopbackPorts;
import io.sam3stream.config.Knob;
import io.sam3stream.config.Settings;
import io.sam3stream.dev.DevStack;
import io.sam3stream.engine.ModelSource;
import io.sam3stream.imaging.SyntheticPicture;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.HdrHistogram.Histogram;

/**
 * What the HTTP facade and Kafka add to the engine: {@code POST /predict} at a steady rate against the one-command
 * stack (embedded KRaft broker, embedded schema registry, one worker, the facade — {@link DevStack} — started here
 * with a small checkpoint, or a stack already running elsewhere), a 640×480 PNG and one prompt per request. Each
 * answer carries the worker's own time for the request, so the overhead is measured per request, in the same run
 * as the engine time it is compared with.
 *
 * <p>Every request sends the same picture, as a camera re-sending a scene would: its image features come from the
 * worker's cache after the first, which keeps the tiny model's forward short enough for the worker to keep up with
 * the rate on two cores. The overhead does not depend on it.
 */
public final class OverheadBenchmark {

    private static final int WIDTH = 640;
    private static final int HEIGHT = 480;
    private static final Duration DEADLINE = Duration.ofSeconds(60);

    /**
     * @param rate          requests per second
     * @param seconds       measured seconds of load
     * @param warmupSeconds seconds of load at the same rate before, not measured
     * @param prompt        the text prompt of every request
     * @param maskFormat    {@code png}, {@code rle} or {@code none}
     */
    public record Load(double rate, double seconds, double warmupSeconds, String prompt, String maskFormat) {}

    /**
     * @param load             what the load generator measured
     * @param split            the means of the facade's own timers over the measured load, when its
     *                         {@code /metrics} answers
     * @param cpuMsPerRequest  CPU milliseconds the process spent per request sent during the measured load, when the
     *                         stack ran in this process (load generator included)
     */
    public record Measurement(LoadGenerator.Result load, Optional<FacadeTimers.Split> split,
            OptionalDouble cpuMsPerRequest) {}

    /** Kinds of thread listed with their CPU per request. */
    private static final int CPU_GROUPS_SHOWN = 10;

    private OverheadBenchmark() {}

    /**
     * Starts the one-command stack with the given checkpoint on free loopback ports (a temporary broker directory,
     * deleted afterwards), runs the load against it and stops it.
     *
     * @param model      a small model (the tiny golden {@code sam3-tiny.pt}, or the demo model)
     * @param threads    libtorch intra-op threads of the worker (0: as it chooses them for the model)
     */
    public static Measurement againstEmbeddedStack(ModelSource model, int threads, Load load,
            Consumer<String> log) throws IOException, InterruptedException {
        Path dataDir = Files.createTempDirectory("sam3-bench-kafka");
        Settings settings = Settings.fromEnvironment()
                .with(Knob.SAM3_NUM_THREADS, Integer.toString(threads))
                .with(Knob.SAM3_PORT, "0");
        try (DevStack stack = DevStack.start(settings, model,
                new DevStack.Options("127.0.0.1", dataDir, LoopbackPorts.freePair(), 0, null, null), log)) {
            return measure(URI.create("http://127.0.0.1:" + stack.httpPort()), load, true, log);
        } finally {
            deleteTree(dataDir);
        }
    }

    /**
     * Runs the load against a stack that is already serving.
     *
     * @param base the facade's base URL, e.g. {@code http://127.0.0.1:20000}
     */
    public static Measurement against(URI base, Load load, Consumer<String> log) throws InterruptedException {
        return measure(base, load, false, log);
    }

    private static Measurement measure(URI base, Load load, boolean stackInThisProcess, Consumer<String> log)
            throws InterruptedException {
        LoadGenerator generator = new LoadGenerator(base.resolve("/predict"), requestBody(load), DEADLINE);
        if (load.warmupSeconds() > 0) {
            log.accept(String.format(Locale.ROOT, "warm-up: %.0f requests/s for %.0f s", load.rate(),
                    load.warmupSeconds()));
            describe(generator.run(load.rate(), load.warmupSeconds()), log);
        }
        log.accept(String.format(Locale.ROOT, "measured: %.0f requests/s for %.0f s", load.rate(), load.seconds()));
        Optional<FacadeTimers> before = FacadeTimers.read(base);
        ThreadCpu cpuBefore = ThreadCpu.snapshot();
        LoadGenerator.Result result = generator.run(load.rate(), load.seconds());
        ThreadCpu cpuAfter = ThreadCpu.snapshot();
        describe(result, log);
        Optional<FacadeTimers> after = before.isPresent() ? FacadeTimers.read(base) : Optional.empty();
        Optional<FacadeTimers.Split> split = after.map(a -> a.since(before.get()));
        split.ifPresent(t -> log.accept(String.format(Locale.ROOT, "  facade timers, mean ms: handler %.2f (of which"
                + " its own work %.2f, Kafka round trip %.2f = to the worker %.2f + worker %.2f + back %.2f)",
                t.handler(), t.facadeWork(), t.roundTrip(), t.queue(), t.worker(), t.replyPath())));
        OptionalDouble cpuMsPerRequest = OptionalDouble.empty();
        if (stackInThisProcess) {
            long sent = result.latency().getTotalCount() + result.failed();
            cpuMsPerRequest = OptionalDouble.of(cpuAfter.processMillisPerUnitSince(cpuBefore, sent));
            log.accept(String.format(Locale.ROOT, "  CPU per request, the whole process: %.1f ms; by kind of thread:",
                    cpuMsPerRequest.getAsDouble()));
            cpuAfter.millisPerUnitSince(cpuBefore, sent).entrySet().stream().limit(CPU_GROUPS_SHOWN).forEach(e ->
                    log.accept(String.format(Locale.ROOT, "    %6.2f ms  %s", e.getValue(), e.getKey())));
        }
        return new Measurement(result, split, cpuMsPerRequest);
    }

    /** Percentiles of a microsecond histogram in milliseconds: {@code "p50 1.23, p90 ..., max ..."}. */
    public static String percentiles(Histogram micros) {
        if (micros.getTotalCount() == 0) {
            return "no samples";
        }
        return String.format(Locale.ROOT, "p50 %.2f, p90 %.2f, p99 %.2f, p99.9 %.2f, max %.2f ms",
                millis(micros, 50), millis(micros, 90), millis(micros, 99), millis(micros, 99.9),
                micros.getMaxValue() / 1e3);
    }

    /** The value at a percentile of a microsecond histogram, in milliseconds. */
    public static double millis(Histogram micros, double percentile) {
        return micros.getValueAtPercentile(percentile) / 1e3;
    }

    private static void describe(LoadGenerator.Result r, Consumer<String> log) {
        log.accept(String.format(Locale.ROOT, "  %d OK, other answers: %s, no answer: %d, %.1f s", r.ok(),
                r.refused(), r.failed(), r.seconds()));
        log.accept("  latency  " + percentiles(r.latency()));
        log.accept("  worker   " + percentiles(r.worker()));
        log.accept("  overhead " + percentiles(r.overhead()));
        log.accept("  queue    " + percentiles(r.queue()));
    }

    private static byte[] requestBody(Load load) {
        byte[] png = SyntheticPicture.png(WIDTH, HEIGHT, 0);
        try {
            return new ObjectMapper().writeValueAsBytes(Map.of(
                    "image", Base64.getEncoder().encodeToString(png),
                    "prompts", List.of(load.prompt()),
                    "mask_format", load.maskFormat()));
        } catch (IOException e) {
            throw new IllegalStateException("cannot write a request body", e);
        }
    }

    /** Deletes a folder and everything in it (the benchmarks' temporary broker folders). */
    static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
