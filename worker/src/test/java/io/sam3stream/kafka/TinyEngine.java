package io.sam3stream.kafka;

import io.sam3stream.config.Settings;
import io.sam3stream.engine.EngineFactory;
import io.sam3stream.engine.ModelSource;
import io.sam3stream.engine.Segmenter;
import io.sam3stream.testing.TinyGolden;
import java.nio.file.Path;
import java.util.Optional;

/** The engine with the tiny golden checkpoint of the test resources. */
public final class TinyEngine {

    private TinyEngine() {}

    /** The upstream-layout checkpoint. */
    public static Path checkpoint() {
        return TinyGolden.dir().resolve("sam3-tiny.pt");
    }

    /** Its hyper-parameters. */
    public static Path config() {
        return TinyGolden.dir().resolve("config.json");
    }

    /** A freshly loaded engine, configured by {@code settings} (limits, caches, threads). */
    public static Segmenter load(Settings settings) {
        return EngineFactory.create(settings, ModelSource.checkpoint(checkpoint(), Optional.of(config())), step -> {});
    }
}
