package io.sam3stream.engine;

import ai.djl.engine.Engine;
import ai.djl.pytorch.engine.PtEngine;
import ai.djl.pytorch.jni.JniUtils;
import io.sam3stream.backend.nativebridge.DeviceSettings;
import io.sam3stream.backend.nativebridge.NativeIslandModules;
import io.sam3stream.backend.nativebridge.NativeIslands;
import io.sam3stream.config.Knob;
import io.sam3stream.config.Settings;
import io.sam3stream.imaging.ImageDecoder;
import io.sam3stream.imaging.ImageLimits;
import io.sam3stream.model.Sam3Model;
import io.sam3stream.model.config.Sam3Config;
import io.sam3stream.model.neck.NeckLevels;
import io.sam3stream.model.nn.Precision;
import io.sam3stream.text.BpeVocabulary;
import io.sam3stream.text.ClipTokenizer;
import io.sam3stream.weights.LoadProgress;
import io.sam3stream.weights.WeightSource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.function.Consumer;

/** Builds the configured engine: model weights, tokenizer, image limits and caches, all from {@link Settings}. */
public final class EngineFactory {

    private static final String[] BACKENDS = {"cpu", "native-host", "tt"};

    private EngineFactory() {}

    /**
     * Loads the model from {@code source} and wraps it in a {@link Sam3Segmenter}.
     *
     * @param progress receives the start-up steps ("Loading checkpoint ...", ...) as they begin
     */
    public static Sam3Segmenter create(Settings settings, ModelSource source, Consumer<String> progress) {
        String backend = settings.getChoice(Knob.SAM3_BACKEND, BACKENDS);
        PrecisionChoice precision = PrecisionChoice.of(settings, source.config());
        Sam3Model model = loadModel(settings, source, NeckLevels.USED, progress);
        int threads = IntraOpThreads.of(settings, source.config()).count();
        ClipTokenizer tokenizer = new ClipTokenizer(BpeVocabulary.fromSettings(settings, source.folder()));
        ImageDecoder decoder = new ImageDecoder(new ImageLimits(settings.getInt(Knob.SAM3_MAX_SIDE),
                settings.getLong(Knob.SAM3_MAX_PIXELS)));
        String device = backend.equals("cpu") ? "cpu:" + threads + " threads" : model.deviceDescription();
        EngineInfo info = new EngineInfo(backend, device, source.repo(), source.revision(),
                source.checkpoint(), source.config().resolution(), precision.describe());
        return new Sam3Segmenter(model, tokenizer, decoder, settings.getInt(Knob.SAM3_MAX_PROMPTS),
                settings.getInt(Knob.SAM3_IMAGE_CACHE_MAX), settings.getInt(Knob.SAM3_TEXT_CACHE_MAX),
                info);
    }

    /**
     * Loads the model on the configured backend: everything in DJL ({@code cpu}), or the ViT trunk and the fusion
     * encoder through the JNI bridge ({@code native-host}: the portable C++ library; {@code tt}: the ttnn build
     * named by {@code SAM3_NATIVE_LIB}). A device that cannot be opened is an error, never a silent fallback.
     */
    public static Sam3Model loadModel(Settings settings, ModelSource source, NeckLevels levels,
            Consumer<String> progress) {
        IntraOpThreads threads = configureThreads(settings, source.config());
        String backend = settings.getChoice(Knob.SAM3_BACKEND, BACKENDS);
        DeviceSettings.meshShape(settings);
        if (backend.equals("tt") && !settings.isSet(Knob.SAM3_NATIVE_LIB)) {
            throw new IllegalStateException("SAM3_BACKEND=tt needs SAM3_NATIVE_LIB to name the ttnn build of the"
                    + " native library (see native/README.md)");
        }
        PrecisionChoice choice = PrecisionChoice.of(settings, source.config());
        Precision precision = choice.precision();
        progress.accept("Precision " + choice.describe() + " (CPU: " + CpuFeatures.host().summary() + ")");
        progress.accept("Threads " + threads.count() + ": " + threads.reason());
        progress.accept("MKL kernels " + MklKernels.apply(settings).explanation());
        NativeAllocator allocator = NativeAllocator.current(settings);
        progress.accept("Allocator " + allocator.name() + ": " + allocator.explanation());
        progress.accept("Loading checkpoint " + source.checkpoint() + " ...");
        try (WeightSource weights = new LoadProgress(source.weights(), checkpointBytes(source), progress)) {
            if (backend.equals("cpu")) {
                progress.accept("Opening device cpu ...");
                return Sam3Model.load(weights, source.config(), levels, precision);
            }
            progress.accept("Opening device " + backend + " ...");
            NativeIslands islands = NativeIslands.open(DeviceSettings.options(settings, threads.count()),
                    source.config(), weights);
            try {
                return Sam3Model.load(weights, source.config(), levels, precision, NativeIslandModules.of(islands));
            } catch (RuntimeException e) {
                islands.close();
                throw e;
            }
        }
    }

    /** The size of the checkpoint file, or 0 when the weights are not one file (generated, demo). */
    private static long checkpointBytes(ModelSource source) {
        try {
            Path file = Path.of(source.checkpoint());
            return Files.isRegularFile(file) ? Files.size(file) : 0;
        } catch (IOException | InvalidPathException e) {
            return 0;
        }
    }

    /**
     * Sets libtorch's intra-op threads as {@link IntraOpThreads} resolves them for this model; inter-op parallelism
     * is off because one forward runs at a time. MKL's kernels ({@link MklKernels}) are chosen first, since that
     * has to happen before libtorch's first product.
     */
    public static IntraOpThreads configureThreads(Settings settings, Sam3Config model) {
        MklKernels.apply(settings);
        IntraOpThreads threads = IntraOpThreads.of(settings, model);
        applyThreads(threads.count());
        return threads;
    }

    /** Sets libtorch's intra-op threads to {@code threads}, with inter-op parallelism off. */
    public static void applyThreads(int threads) {
        // read once, when the PyTorch engine starts: the inter-op count can only be set before any parallel work
        System.setProperty("ai.djl.pytorch.num_threads", Integer.toString(threads));
        System.setProperty("ai.djl.pytorch.num_interop_threads", "1");
        // a process whose engine has already started (a second engine, a benchmark changing settings) gets the
        // intra-op count applied now rather than silently keeping the first one
        Engine.getEngine(PtEngine.ENGINE_NAME);
        JniUtils.setNumThreads(threads);
    }
}
