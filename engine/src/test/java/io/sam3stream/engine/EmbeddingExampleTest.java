package io.sam3stream.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sam3stream.config.Knob;
import io.sam3stream.config.Settings;
import io.sam3stream.imaging.SyntheticPicture;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The embedding example of {@code engine/README.md}, line for line, on the demo model (no file): the library's
 * public API is what a program outside this project calls.
 */
class EmbeddingExampleTest {

    @Test
    void theReadmeExampleSegmentsAnImage() {
        Settings settings = Settings.fromEnvironment().with(Knob.SAM3_PRECISION, "fp32");
        List<String> progress = new ArrayList<>();
        List<String> printed = new ArrayList<>();
        try (Segmenter engine = EngineFactory.create(settings, ModelSource.demo(), progress::add)) {
            SegmentResponse response = engine.segment(SegmentRequest.of(SyntheticPicture.png(320, 240, 1), "a cat"));
            for (SegmentResponse.PromptResult prompt : response.results()) {
                for (SegmentResponse.Instance instance : prompt.instances()) {
                    printed.add(prompt.prompt() + " " + instance.score());
                }
            }
            assertEquals(320, response.width());
            assertEquals(240, response.height());
            assertEquals(1, response.results().size());
            assertEquals("a cat", response.results().get(0).prompt());
        }
        assertTrue(!progress.isEmpty(), "the factory reports its progress");
        assertTrue(printed.stream().allMatch(line -> line.startsWith("a cat ")), printed.toString());
    }
}
