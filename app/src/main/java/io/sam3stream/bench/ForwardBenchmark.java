package io.sam3stream.bench;

import io.sam3stream.config.Knob;
import io.sam3stream.config.Settings;
import io.sam3stream.engine.EngineFactory;
import io.sam3stream.engine.Inference;
import io.sam3stream.engine.ModelSource;
import io.sam3stream.engine.PrecisionChoice;
import io.sam3stream.engine.PreparedRequest;
import io.sam3stream.engine.Sam3Segmenter;
import io.sam3stream.engine.SegmentRequest;
import io.sam3stream.imaging.SyntheticPicture;
import io.sam3stream.model.config.Sam3Config;
import io.sam3stream.model.nn.ComputeOptions;
import io.sam3stream.model.nn.ModuleClock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * The full-size model (procedural weights) through the engine's {@link Sam3Segmenter#infer}: one 1008×1008 image
 * with one text prompt per forward, timed per module. Passes alternate between the modes, after one warm-up forward
 * of each: the engine as it serves (in the precision {@code SAM3_PRECISION} selects); when that is not float32, a
 * float32 engine built from the same weights, so that the precision's gain is measured side by side; and, when
 * asked, the control ({@link ComputeOptions#PLAIN}) on the float32 weights, and the served engine with its
 * modules op by op, without their graphs and thread policy ({@link ComputeOptions#withOpByOpModules}). Then extra
 * prompts on the image just seen (features cached) in each mode. Peak resident memory is tracked per forward, with
 * an image-feature cache of one entry; it only describes the served mode when that is the one model in the
 * process.
 */
public final class ForwardBenchmark {

    /** The prompt of every full forward, as in upstream's anchor. */
    private static final String PROMPT = "a red car";
    /** Prompts 2..4 on a cached image; each mode gets its own so that no text encoding is cached either. */
    private static final List<String> EXTRA_PROMPTS = List.of("a cat", "a person", "a bicycle");

    /** The most prompts after the first that one forward is measured with. */
    public static final int MAX_EXTRA_PROMPTS = EXTRA_PROMPTS.size();

    /**
     * @param threads      libtorch intra-op threads
     * @param passes       timed forwards per mode
     * @param control      also run every pass with all optimisations off
     * @param extraPrompts prompts after the first on a cached image (0..3)
     * @param compareFp32  when the served precision is not float32, also build a float32 engine and alternate
     * @param opByOp       also run every pass with the served engine's modules op by op, without their graphs and
     *                     thread policy ({@link ComputeOptions#withOpByOpModules})
     */
    public record Options(int threads, int passes, boolean control, int extraPrompts, boolean compareFp32,
            boolean opByOp) {
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
    public record ModeResult(String name, List<Forward> forwards, List<Double> extraPromptSeconds) {

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
     * @param precision         the served precision and why ({@code PrecisionChoice#describe})
     * @param servedIsFp32      whether the served mode computes in float32
     * @param loadSeconds       weight generation and construction of the served model
     * @param residentAfterLoad resident bytes once the served model is built
     * @param loadPeakBytes     peak resident bytes up to the end of loading it
     * @param singleModel       whether the served model was the only one in the process (memory rows are valid)
     * @param served            the engine as it serves, named by its precision's label
     * @param fp32              the float32 engine on the same weights, or null when the served one is float32
     * @param control           every optimisation off (float32), or null
     * @param opByOp            the served engine with its prompt side op by op on every thread, or null
     */
    public record Result(String precision, boolean servedIsFp32, double loadSeconds, long residentAfterLoad,
            long loadPeakBytes, boolean singleModel, ModeResult served, ModeResult fp32, ModeResult control,
            ModeResult opByOp) {}

    /** One way of running the forward: which engine, under which options. */
    private record Mode(String name, Sam3Segmenter engine, ComputeOptions options) {}

    private ForwardBenchmark() {}

    /** Loads the full-size model (twice when comparing precisions), runs the passes and prompts, closes them. */
    public static Result run(Options options, Consumer<String> log) {
        Settings settings = Settings.fromEnvironment()
                .with(Knob.SAM3_NUM_THREADS, Integer.toString(options.threads()))
                // one cached image, as upstream holds one: each cached image adds its feature maps to the peak
                .with(Knob.SAM3_IMAGE_CACHE_MAX, "1");
        PrecisionChoice choice = PrecisionChoice.of(settings, Sam3Config.fullSize());
        boolean servedIsFp32 = choice.precision().isFp32();
        long start = System.nanoTime();
        try (Sam3Segmenter served = EngineFactory.create(settings, ModelSource.procedural(), log)) {
            double loadSeconds = (System.nanoTime() - start) / 1e9;
            long resident = ProcessMemory.residentBytes();
            long loadPeak = ProcessMemory.peakBytes();
            log.accept(String.format(Locale.ROOT, "model built in %.1f s, resident %.2f GB (peak so far %.2f GB)",
                    loadSeconds, ProcessMemory.gigabytes(resident), ProcessMemory.gigabytes(loadPeak)));
            boolean second = !servedIsFp32 && (options.compareFp32() || options.control());
            try (Sam3Segmenter fp32 = second
                    ? EngineFactory.create(settings.with(Knob.SAM3_PRECISION, "fp32"), ModelSource.procedural(), log)
                    : null) {
                Mode servedMode = new Mode(choice.precision().label(), served, ComputeOptions.OPTIMIZED);
                Mode fp32Mode = fp32 != null && options.compareFp32()
                        ? new Mode("fp32", fp32, ComputeOptions.OPTIMIZED) : null;
                Mode controlMode = options.control()
                        ? new Mode("control", fp32 != null ? fp32 : served, ComputeOptions.PLAIN) : null;
                Mode opByOpMode = options.opByOp()
                        ? new Mode("before", served, ComputeOptions.OPTIMIZED.withOpByOpModules()) : null;
                List<Mode> modes = Stream.of(servedMode, fp32Mode, controlMode, opByOpMode).filter(Objects::nonNull)
                        .toList();
                Map<Mode, ModeResult> results = measure(modes, options, log);
                return new Result(choice.describe(), servedIsFp32, loadSeconds, resident, loadPeak, fp32 == null,
                        results.get(servedMode), results.get(fp32Mode), results.get(controlMode),
                        results.get(opByOpMode));
            }
        }
    }

    private static Map<Mode, ModeResult> measure(List<Mode> modes, Options options, Consumer<String> log) {
        Map<Mode, List<Forward>> forwards = new LinkedHashMap<>();
        Map<Mode, List<Double>> extra = new LinkedHashMap<>();
        int variant = 0;
        for (Mode mode : modes) {
            log.accept("warm-up forward, " + mode.name() + ", optimisations: " + mode.options().describe());
            timed(mode, prepare(mode.engine(), ++variant, PROMPT), false, log, "warm-up");
            forwards.put(mode, new ArrayList<>());
            extra.put(mode, new ArrayList<>());
        }
        for (int pass = 1; pass <= options.passes(); pass++) {
            for (Mode mode : modes) {
                PreparedRequest image = prepare(mode.engine(), ++variant, PROMPT);
                forwards.get(mode).add(timed(mode, image, false, log, "pass " + pass));
                if (pass == options.passes()) {
                    // straight after the forward, while its image is the one the cache holds
                    for (int i = 0; i < options.extraPrompts(); i++) {
                        String prompt = EXTRA_PROMPTS.get(i) + (mode == modes.get(0) ? "" : " (" + mode.name() + ")");
                        PreparedRequest sameImage = mode.engine().prepare(
                                SegmentRequest.of(image.request().image(), prompt));
                        extra.get(mode).add(timed(mode, sameImage, true, log,
                                "prompt " + (i + 2) + " on a cached image").seconds());
                    }
                }
            }
        }
        Map<Mode, ModeResult> results = new LinkedHashMap<>();
        for (Mode mode : modes) {
            results.put(mode, new ModeResult(mode.name(), List.copyOf(forwards.get(mode)),
                    List.copyOf(extra.get(mode))));
        }
        return results;
    }

    private static PreparedRequest prepare(Sam3Segmenter engine, int variant, String prompt) {
        int side = engine.info().inputSize();
        return engine.prepare(SegmentRequest.of(SyntheticPicture.png(side, side, variant), prompt));
    }

    /**
     * One {@code infer} under {@code mode}, timed per module.
     *
     * @param expectCached whether the request's image features must come from the cache (an extra prompt) or must
     *                     not (a full forward); anything else means the benchmark is not measuring what it says
     */
    private static Forward timed(Mode mode, PreparedRequest request, boolean expectCached, Consumer<String> log,
            String label) {
        ProcessMemory.resetPeak();
        long start = System.nanoTime();
        long cpuStart = CpuClock.nanos();
        Map<String, Double> modules;
        try (ComputeOptions.Scope scope = mode.options().activate(); ModuleClock clock = ModuleClock.start()) {
            Inference inference = mode.engine().infer(request);
            if (inference.imageFeaturesCached() != expectCached) {
                throw new IllegalStateException(label + ": image features were "
                        + (inference.imageFeaturesCached() ? "" : "not ") + "cached");
            }
            modules = new LinkedHashMap<>(clock.seconds());
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        double cpuSeconds = (CpuClock.nanos() - cpuStart) / 1e9;
        Forward forward = new Forward(seconds, cpuSeconds, modules, ProcessMemory.peakBytes());
        log.accept(String.format(Locale.ROOT, "%s [%s]: %.2f s (cpu %.1f s) %s, peak %.2f GB, load %s", label,
                mode.name(), seconds, cpuSeconds,
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
