package io.sam3stream.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sam3stream.config.Settings;
import io.sam3stream.imaging.SyntheticPicture;
import io.sam3stream.testing.TinyGolden;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Whatever the caches' sizes, a request never loses features it still needs: a request with more distinct prompts
 * than the text cache holds (and a prompt repeated), and images alternating through an image cache of one, give
 * exactly the answers of an engine whose caches hold everything.
 */
class FeatureCacheUseTest {

    private static final int MAX_PROMPTS = 4;
    private static final List<String> PROMPTS = List.of("cat", "dog", "a red car", "a person", "tree", "sky");

    private static Segmenter roomy;
    private static byte[] golden;
    private static byte[] other;

    @BeforeAll
    static void load() throws IOException {
        roomy = engine(256, 4);
        golden = Files.readAllBytes(TinyGolden.dir().resolve("image.png"));
        other = SyntheticPicture.png(96, 64, 1);
    }

    @AfterAll
    static void close() throws Exception {
        roomy.close();
    }

    private static Segmenter engine(int textCache, int imageCache) {
        return EngineFactory.create(Settings.from(Map.of("SAM3_MAX_PROMPTS", Integer.toString(MAX_PROMPTS),
                "SAM3_TEXT_CACHE_MAX", Integer.toString(textCache),
                "SAM3_IMAGE_CACHE_MAX", Integer.toString(imageCache), "SAM3_PRECISION", "fp32")),
                ModelSource.checkpoint(TinyGolden.dir().resolve("sam3-tiny.pt"), Optional.empty()), line -> {});
    }

    /**
     * The requests: every window of four distinct prompts of {@link #PROMPTS} (more distinct prompts than every
     * cache size tried holds), each followed by one that repeats a prompt, on alternating images.
     */
    private static List<SegmentRequest> requests() {
        List<SegmentRequest> requests = new ArrayList<>();
        for (int start = 0; start + MAX_PROMPTS <= PROMPTS.size(); start++) {
            List<String> window = PROMPTS.subList(start, start + MAX_PROMPTS);
            byte[] image = start % 2 == 0 ? golden : other;
            requests.add(request(image, window));
            requests.add(request(image, List.of(window.get(3), window.get(0), window.get(3), PROMPTS.get(0))));
        }
        return requests;
    }

    private static SegmentRequest request(byte[] image, List<String> prompts) {
        return new SegmentRequest(image, prompts.stream().map(PromptSpec::text).toList(), 0.3f, 10,
                MaskFormat.NONE);
    }

    @ParameterizedTest(name = "text cache {0}")
    @ValueSource(ints = {0, 1, MAX_PROMPTS - 1})
    void smallCachesGiveTheAnswersOfARoomyOne(int textCache) throws Exception {
        try (Segmenter tight = engine(textCache, 1)) {
            for (int round = 0; round < 2; round++) { // the second round meets whatever the first left cached
                for (SegmentRequest request : requests()) {
                    assertSameAnswer(roomy.segment(request), tight.segment(request));
                }
            }
        }
    }

    private static void assertSameAnswer(SegmentResponse expected, SegmentResponse actual) {
        assertEquals(expected.results().size(), actual.results().size());
        for (int p = 0; p < expected.results().size(); p++) {
            SegmentResponse.PromptResult e = expected.results().get(p);
            SegmentResponse.PromptResult a = actual.results().get(p);
            assertEquals(e.prompt(), a.prompt());
            assertEquals(e.presence(), a.presence(), 0f);
            assertEquals(e.instances().size(), a.instances().size(), e.prompt());
            for (int i = 0; i < e.instances().size(); i++) {
                assertEquals(e.instances().get(i).score(), a.instances().get(i).score(), 0f, e.prompt());
                assertEquals(e.instances().get(i).maskArea(), a.instances().get(i).maskArea(), e.prompt());
            }
        }
    }
}
