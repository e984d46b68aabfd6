package io.sam3stream.engine;

import io.sam3stream.config.Knob;
import io.sam3stream.config.Settings;
import io.sam3stream.imaging.ImageDecoder;
import io.sam3stream.imaging.ImageLimits;
import io.sam3stream.model.Sam3Model;
import io.sam3stream.model.neck.NeckLevels;
import io.sam3stream.text.BpeVocabulary;
import io.sam3stream.text.ClipTokenizer;
import io.sam3stream.weights.WeightSource;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;

/** Builds the configured engine: model weights, tokenizer, image limits and caches, all from {@link Settings}. */
public final class EngineFactory {

    private EngineFactory() {}

    /**
     * Loads the model from {@code source} and wraps it in a {@link Sam3Segmenter}.
     *
     * @param progress receives the start-up steps ("Loading checkpoint ...", ...) as they begin
     */
    public static Sam3Segmenter create(Settings settings, ModelSource source, Consumer<String> progress) {
        String backend = settings.getChoice(Knob.SAM3_BACKEND, "cpu", "native-host", "tt");
        if (!backend.equals("cpu")) {
            throw new IllegalStateException("SAM3_BACKEND=" + backend + " is not available in this build; use cpu");
        }
        int threads = configureThreads(settings);
        progress.accept("Loading checkpoint " + source.checkpoint() + " ...");
        Sam3Model model;
        try (WeightSource weights = source.weights()) {
            model = Sam3Model.load(weights, source.config(), NeckLevels.USED);
        }
        progress.accept("Opening device cpu (" + threads + " threads) ...");
        Map<String, String> env = new HashMap<>();
        if (settings.isSet(Knob.SAM3_BPE_PATH)) {
            env.put(Knob.SAM3_BPE_PATH.name(), settings.get(Knob.SAM3_BPE_PATH));
        }
        ClipTokenizer tokenizer = new ClipTokenizer(BpeVocabulary.fromEnvironment(env, source.folder()));
        ImageDecoder decoder = new ImageDecoder(new ImageLimits(settings.getInt(Knob.SAM3_MAX_SIDE, 1, 1 << 16),
                settings.getLong(Knob.SAM3_MAX_PIXELS, 1, Long.MAX_VALUE)));
        EngineInfo info = new EngineInfo("cpu", "cpu:" + threads + " threads", source.repo(), source.revision(),
                source.checkpoint(), source.config().resolution());
        return new Sam3Segmenter(model, tokenizer, decoder, settings.getInt(Knob.SAM3_MAX_PROMPTS, 1, 64),
                settings.getInt(Knob.SAM3_IMAGE_CACHE_MAX, 0, 1024), settings.getInt(Knob.SAM3_TEXT_CACHE_MAX, 0, 1 << 20),
                info);
    }

    /**
     * Sets libtorch's intra-op threads from {@code SAM3_NUM_THREADS} (0 = every core this process may use) before
     * the engine starts; inter-op parallelism is off because one forward runs at a time.
     */
    static int configureThreads(Settings settings) {
        int threads = settings.getInt(Knob.SAM3_NUM_THREADS, 0, 4096);
        if (threads == 0) {
            threads = Runtime.getRuntime().availableProcessors();
        }
        System.setProperty("ai.djl.pytorch.num_threads", Integer.toString(threads));
        System.setProperty("ai.djl.pytorch.num_interop_threads", "1");
        return threads;
    }
}
