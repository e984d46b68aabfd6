package io.sam3stream.bench;

import io.sam3stream.config.Knob;
import io.sam3stream.config.Settings;
import io.sam3stream.engine.EngineFactory;
import io.sam3stream.engine.Inference;
import io.sam3stream.engine.ModelSource;
import io.sam3stream.engine.PreparedRequest;
import io.sam3stream.engine.Sam3Segmenter;
import io.sam3stream.engine.SegmentRequest;
import io.sam3stream.model.nn.ComputeOptions;
import io.sam3stream.model.nn.ModuleClock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The full-size model (procedural weights) through the engine's {@link Sam3Segmenter#infer}: one 1008×1008 image
 * with one text prompt per forward, timed per module. Passes alternate between the optimised engine and, when asked,
 * the control ({@link ComputeOptions#PLAIN}) on the same loaded weights, after one warm-up forward of each; then
 * extra prompts on the image just seen (features cached) in each mode. Peak resident memory is tracked per forward,
 * with an image-feature cache of one entry.
 */
public final class ForwardBenchmark {

    /** The prompt of every full forward, as in upstream's anchor. */
    private static final String PROMPT = "a red car";
    /** Prompts 2..4 on a cached image; each mode gets its own so that no text encoding is cached either. */
    private static final List<String> EXTRA_PROMPTS = List.of("a cat", "a person", "a bicycle");

    /**
     * @param threads      libtorch intra-op threads
     * @param passes       timed forwards per mode
     * @param control      also run every pass with all optimisations off
     * @param extraPrompts prompts after the first on a cached image (0..3)
     */
    public record Options(int threads, int passes, boolean control, int extraPrompts) {
        public Options {
            if (threads < 1 || passes < 1 || extraPrompts < 0 || extraPrompts > EXTRA_PROMPTS.size()) {
                throw new IllegalArgumentException("threads and passes must be >= 1, extra prompts 0.."
                        + EXTRA_PROMPTS.size());
            }
        }
    }

    /** One timed forward: wall and CPU seconds of infer, wall seconds per module, peak resident bytes during it. */
    public record Forward(double seconds, double cpuSeconds, Map<String, Double> modules, long peakBytes) {}

    /** Every forward of one mode, and its extra prompts' seconds. */
    public record ModeResult(ComputeOptions options, List<Forward> forwards, List<Double> extraPromptSeconds) {

        /** The median forward by wall time. */
        public Forward median() {
            List<Forward> sorted = new ArrayList<>(forwards);
            sorted.sort((a, b) -> Double.compare(a.seconds(), b.seconds()));
            return sorted.get(sorted.size() / 2);
        }

        public long peakBytes() {
            return forwards.stream().mapToLong(Forward::peakBytes).max().orElse(0);
        }
    }

    /**
     * @param loadSeconds     weight generation and model construction
     * @param residentAfterLoad resident bytes once the model is built
     * @param loadPeakBytes   peak resident bytes up to the end of loading
     * @param optimized       the engine as it serves
     * @param control         every optimisation off, or null
     */
    public record Result(double loadSeconds, long residentAfterLoad, long loadPeakBytes, ModeResult optimized,
            ModeResult control) {}

    private ForwardBenchmark() {}

    /** Loads the full-size model, runs the passes and prompts, closes the model. */
    public static Result run(Options options, Consumer<String> log) {
        Settings settings = Settings.fromEnvironment()
                .with(Knob.SAM3_NUM_THREADS, Integer.toString(options.threads()))
                // one cached image, as upstream holds one: each cached image adds its feature maps to the peak
                .with(Knob.SAM3_IMAGE_CACHE_MAX, "1");
        long start = System.nanoTime();
        try (Sam3Segmenter engine = EngineFactory.create(settings, ModelSource.procedural(), log)) {
            double loadSeconds = (System.nanoTime() - start) / 1e9;
            long resident = ProcessMemory.residentBytes();
            long loadPeak = ProcessMemory.peakBytes();
            log.accept(String.format(Locale.ROOT, "model built in %.1f s, resident %.2f GB (peak so far %.2f GB)",
                    loadSeconds, ProcessMemory.gigabytes(resident), ProcessMemory.gigabytes(loadPeak)));
            List<ComputeOptions> modes = options.control()
                    ? List.of(ComputeOptions.OPTIMIZED, ComputeOptions.PLAIN)
                    : List.of(ComputeOptions.OPTIMIZED);
            Map<ComputeOptions, List<Forward>> forwards = new LinkedHashMap<>();
            Map<ComputeOptions, List<Double>> extra = new LinkedHashMap<>();
            int variant = 0;
            for (ComputeOptions mode : modes) {
                log.accept("warm-up forward, optimisations: " + mode.describe());
                forward(engine, mode, ++variant, log);
                forwards.put(mode, new ArrayList<>());
                extra.put(mode, new ArrayList<>());
            }
            for (int pass = 1; pass <= options.passes(); pass++) {
                for (ComputeOptions mode : modes) {
                    PreparedRequest image = prepare(engine, ++variant, PROMPT);
                    forwards.get(mode).add(timed(engine, mode, image, log, "pass " + pass));
                    if (pass == options.passes()) {
                        // straight after the forward, while its image is the one the cache holds
                        for (int i = 0; i < options.extraPrompts(); i++) {
                            String prompt = EXTRA_PROMPTS.get(i) + (mode == modes.get(0) ? "" : " (control)");
                            PreparedRequest sameImage = engine.prepare(SegmentRequest.of(image.request().image(),
                                    prompt));
                            extra.get(mode).add(timed(engine, mode, sameImage, log,
                                    "prompt " + (i + 2) + " on a cached image").seconds());
                        }
                    }
                }
            }
            List<ModeResult> results = new ArrayList<>();
            for (ComputeOptions mode : modes) {
                results.add(new ModeResult(mode, List.copyOf(forwards.get(mode)), List.copyOf(extra.get(mode))));
            }
            return new Result(loadSeconds, resident, loadPeak, results.get(0),
                    results.size() > 1 ? results.get(1) : null);
        }
    }

    private static PreparedRequest prepare(Sam3Segmenter engine, int variant, String prompt) {
        int side = engine.info().inputSize();
        return engine.prepare(SegmentRequest.of(SyntheticPicture.png(side, side, variant), prompt));
    }

    private static void forward(Sam3Segmenter engine, ComputeOptions mode, int variant, Consumer<String> log) {
        timed(engine, mode, prepare(engine, variant, PROMPT), log, "warm-up");
    }

    private static Forward timed(Sam3Segmenter engine, ComputeOptions mode, PreparedRequest request,
            Consumer<String> log, String label) {
        ProcessMemory.resetPeak();
        long start = System.nanoTime();
        long cpuStart = CpuClock.nanos();
        Map<String, Double> modules;
        try (ComputeOptions.Scope scope = mode.activate(); ModuleClock clock = ModuleClock.start()) {
            Inference inference = engine.infer(request);
            if (inference.imageFeaturesCached() != label.startsWith("prompt")) {
                throw new IllegalStateException(label + ": image features were "
                        + (inference.imageFeaturesCached() ? "" : "not ") + "cached");
            }
            modules = new LinkedHashMap<>(clock.seconds());
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        double cpuSeconds = (CpuClock.nanos() - cpuStart) / 1e9;
        Forward forward = new Forward(seconds, cpuSeconds, modules, ProcessMemory.peakBytes());
        log.accept(String.format(Locale.ROOT, "%s [%s]: %.2f s (cpu %.1f s) %s, peak %.2f GB, load %s", label,
                mode == ComputeOptions.OPTIMIZED ? "optimised" : "control", seconds, cpuSeconds,
                formatModules(modules), ProcessMemory.gigabytes(forward.peakBytes()), MachineInfo.loadAverage()));
        return forward;
    }

    /** "(vit_trunk 40.1, neck 1.2, ...)" */
    public static String formatModules(Map<String, Double> modules) {
        StringBuilder b = new StringBuilder("(");
        modules.forEach((name, s) -> b.append(b.length() > 1 ? ", " : "")
                .append(String.format(Locale.ROOT, "%s %.2f", name, s)));
        return b.append(')').toString();
    }
}
