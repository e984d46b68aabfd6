package io.sam3stream.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sam3stream.config.Knob;
import io.sam3stream.config.Settings;
import io.sam3stream.imaging.SyntheticPicture;
import io.sam3stream.testing.TinyGolden;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The engine starts with every one of its knobs at the lowest and at the highest value its range allows, and
 * serves: a request inside the limits gets an answer, one outside them a clean refusal, and the engine goes on
 * serving. (The thread count is process-wide, so {@code EngineThreadsTest} covers it instead.)
 */
class EngineKnobEdgesTest {

    private static final List<Knob> ENGINE_KNOBS = List.of(Knob.SAM3_MAX_PROMPTS, Knob.SAM3_MAX_SIDE,
            Knob.SAM3_MAX_PIXELS, Knob.SAM3_TEXT_CACHE_MAX, Knob.SAM3_IMAGE_CACHE_MAX);

    private static Segmenter engineWithEvery(boolean highest) {
        Map<String, String> env = new HashMap<>(Map.of("SAM3_PRECISION", "fp32"));
        for (Knob knob : ENGINE_KNOBS) {
            env.put(knob.name(), Long.toString(highest ? knob.max() : knob.min()));
        }
        return EngineFactory.create(Settings.from(env),
                ModelSource.checkpoint(TinyGolden.dir().resolve("sam3-tiny.pt"), Optional.empty()), line -> {});
    }

    private static SegmentRequest request(int prompts, int side) {
        List<PromptSpec> specs = new ArrayList<>();
        for (int i = 0; i < prompts; i++) {
            specs.add(PromptSpec.text("thing " + i));
        }
        return new SegmentRequest(SyntheticPicture.png(side, side, prompts), specs, 0.5f, 5, MaskFormat.RLE);
    }

    @Test
    void everyKnobAtItsHighestServesTheLargestRequestItAllows() throws Exception {
        try (Segmenter engine = engineWithEvery(true)) {
            int prompts = (int) Knob.SAM3_MAX_PROMPTS.max();
            SegmentResponse r = engine.segment(request(prompts, 96));
            assertEquals(prompts, r.results().size());
            // twice more: the second request on the same image comes from the cache
            assertEquals(prompts, engine.segment(request(prompts, 96)).results().size());
            RequestRejectedException tooMany = assertThrows(RequestRejectedException.class,
                    () -> engine.segment(request(prompts + 1, 96)));
            assertEquals(ErrorCode.BAD_REQUEST, tooMany.code());
        }
    }

    @Test
    void everyKnobAtItsLowestRefusesCleanlyAndKeepsServing() throws Exception {
        try (Segmenter engine = engineWithEvery(false)) {
            // a 1-pixel limit refuses every real picture, with a client error and not a failure
            for (int attempt = 0; attempt < 2; attempt++) {
                RequestRejectedException refused = assertThrows(RequestRejectedException.class,
                        () -> engine.segment(request(1, 32)));
                assertEquals(ErrorCode.BAD_REQUEST, refused.code(), refused.getMessage());
            }
            // and with no cache at all, a 1×1 picture within the limits is served
            SegmentResponse r = engine.segment(request(1, 1));
            assertEquals(1, r.width());
            assertEquals(1, r.results().size());
        }
    }
}
