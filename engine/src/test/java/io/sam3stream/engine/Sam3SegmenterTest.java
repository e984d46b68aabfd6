package io.sam3stream.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sam3stream.config.Settings;
import io.sam3stream.imageheader.ImageHeader;
import io.sam3stream.testing.TinyGolden;
import io.sam3stream.weights.RawTensor;
import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The pipeline on the tiny golden model: upstream's answers, the reference contract, caches and limits. */
class Sam3SegmenterTest {

    private static Sam3Segmenter segmenter;
    private static byte[] goldenPng;

    @BeforeAll
    static void load() throws IOException {
        segmenter = EngineFactory.create(Settings.from(Map.of("SAM3_MAX_PROMPTS", "4", "SAM3_PRECISION", "fp32")),
                ModelSource.checkpoint(TinyGolden.dir().resolve("sam3-tiny.pt"), Optional.empty()), line -> {});
        goldenPng = Files.readAllBytes(TinyGolden.dir().resolve("image.png"));
    }

    @AfterAll
    static void close() {
        segmenter.close();
    }

    private static SegmentRequest request(MaskFormat format, int maxInstances, String... prompts) {
        return new SegmentRequest(goldenPng, java.util.Arrays.stream(prompts).map(PromptSpec::text).toList(), 0.5f,
                maxInstances, format);
    }

    @Test
    void keepsUpstreamsInstancesHighestScoreFirstWithClampedBoxes() {
        SegmentResponse r = segmenter.segment(request(MaskFormat.RLE, 50, "cat", "a red car"));
        assertEquals(200, r.width());
        assertEquals(150, r.height());
        assertEquals(168, r.inputSize());
        float[] goldenScores = TinyGolden.outputs().get("p0.post_t050.scores").toFloats();
        SegmentResponse.PromptResult cat = r.results().get(0);
        assertEquals("cat", cat.prompt());
        assertEquals(goldenScores.length, cat.instances().size());
        float[] sortedGolden = goldenScores.clone();
        java.util.Arrays.sort(sortedGolden);
        for (int i = 0; i < sortedGolden.length; i++) {
            assertEquals(sortedGolden[sortedGolden.length - 1 - i], cat.instances().get(i).score(), 1e-4);
        }
        for (SegmentResponse.PromptResult pr : r.results()) {
            for (SegmentResponse.Instance inst : pr.instances()) {
                float[] b = inst.boxXyxy();
                assertTrue(b[0] >= 0 && b[2] <= 200 && b[1] >= 0 && b[3] <= 150, java.util.Arrays.toString(b));
                EncodedMask.Rle rle = assertInstanceOf(EncodedMask.Rle.class, inst.mask());
                assertEquals(150 * 200, java.util.Arrays.stream(rle.counts()).sum());
            }
        }
        assertEquals(TinyGolden.outputs().get("p1.post_t050.scores").size(), r.results().get(1).instances().size());
    }

    @Test
    void maskAreaCountsTheGoldenMaskPixels() {
        SegmentResponse r = segmenter.segment(request(MaskFormat.PNG, 50, "person wearing a hat"));
        RawTensor masks = TinyGolden.outputs().get("p2.post_t050.masks");
        boolean[] golden = masks.toBooleans();
        long goldenArea = 0;
        for (boolean b : golden) {
            goldenArea += b ? 1 : 0;
        }
        SegmentResponse.Instance only = r.results().get(0).instances().get(0);
        assertEquals(goldenArea, only.maskArea(), 0.001 * golden.length);
        byte[] png = assertInstanceOf(EncodedMask.Png.class, only.mask()).bytes();
        assertEquals(200, ImageHeader.read(png).width());
    }

    @Test
    void maxInstancesKeepsTheHighestScores() {
        SegmentResponse all = segmenter.segment(request(MaskFormat.NONE, 50, "cat"));
        SegmentResponse one = segmenter.segment(request(MaskFormat.NONE, 1, "cat"));
        assertEquals(1, one.results().get(0).instances().size());
        assertEquals(all.results().get(0).instances().get(0).score(), one.results().get(0).instances().get(0).score());
        assertNull(one.results().get(0).instances().get(0).mask());
    }

    @Test
    void aSecondRequestOnTheSameImageSkipsTheBackboneAndKnownPromptsSkipTheTextEncoder() {
        SegmentRequest first = new SegmentRequest(goldenPng.clone(), List.of(PromptSpec.text("a brand new prompt")),
                0.5f, 50, MaskFormat.NONE);
        segmenter.segment(first);
        long backbone = segmenter.backboneRuns();
        long text = segmenter.textEncoderRuns();
        Inference again = segmenter.infer(segmenter.prepare(first));
        assertTrue(again.imageFeaturesCached());
        assertEquals(backbone, segmenter.backboneRuns());
        assertEquals(text, segmenter.textEncoderRuns());
        segmenter.segment(new SegmentRequest(goldenPng, List.of(PromptSpec.text("another new prompt")), 0.5f, 50,
                MaskFormat.NONE));
        assertEquals(backbone, segmenter.backboneRuns());
        assertEquals(text + 1, segmenter.textEncoderRuns());
    }

    @Test
    void batchedPromptsAnswerLikeSinglePrompts() {
        SegmentResponse batch = segmenter.segment(request(MaskFormat.NONE, 50, "cat", "a red car", "person wearing a hat"));
        String[] prompts = {"cat", "a red car", "person wearing a hat"};
        for (int i = 0; i < prompts.length; i++) {
            SegmentResponse single = segmenter.segment(request(MaskFormat.NONE, 50, prompts[i]));
            List<SegmentResponse.Instance> a = batch.results().get(i).instances();
            List<SegmentResponse.Instance> b = single.results().get(0).instances();
            assertEquals(b.size(), a.size());
            for (int k = 0; k < a.size(); k++) {
                assertEquals(b.get(k).score(), a.get(k).score(), 1e-5);
                assertArrayEquals(b.get(k).boxXyxy(), a.get(k).boxXyxy(), 1e-3f);
            }
        }
    }

    @Test
    void exemplarBoxesChangeTheAnswerLikeUpstreamsBoxCase() {
        // b0: "cat" + positive box cxcywh [0.55, 0.45, 0.4, 0.5] of the 200x150 image
        BoxExemplar box = new BoxExemplar(0.35f * 200, 0.20f * 150, 0.75f * 200, 0.70f * 150, true);
        SegmentResponse r = segmenter.segment(new SegmentRequest(goldenPng, List.of(new PromptSpec("cat",
                List.of(box))), 0.5f, 50, MaskFormat.NONE));
        assertEquals(TinyGolden.outputs().get("b0.post_t050.scores").size(), r.results().get(0).instances().size());
    }

    @Test
    void rejectsWhatTheReferenceRejectsWithItsErrorClasses() {
        assertEquals(ErrorCode.BAD_REQUEST, codeOf(request(MaskFormat.PNG, 50, "a", "b", "c", "d", "e")));
        assertEquals(ErrorCode.BAD_REQUEST, codeOf(request(MaskFormat.PNG, 50, "  ")));
        assertEquals(ErrorCode.BAD_REQUEST, codeOf(request(MaskFormat.PNG, 50)));
        assertEquals(ErrorCode.UNPROCESSABLE_ENTITY, codeOf(new SegmentRequest(goldenPng, List.of(PromptSpec.text("cat")),
                Float.NaN, 50, MaskFormat.PNG)));
        assertEquals(ErrorCode.UNPROCESSABLE_ENTITY, codeOf(request(MaskFormat.PNG, 201, "cat")));
        assertEquals(ErrorCode.UNPROCESSABLE_ENTITY, codeOf(request(MaskFormat.PNG, 50, "cat".repeat(400))));
        assertEquals(ErrorCode.UNPROCESSABLE_ENTITY, codeOf(request(MaskFormat.PNG, 0, "cat")));
        assertEquals(ErrorCode.BAD_REQUEST, codeOf(new SegmentRequest(new byte[] {1, 2, 3}, List.of(PromptSpec.text("cat")),
                0.5f, 50, MaskFormat.PNG)));
        assertEquals(ErrorCode.UNPROCESSABLE_ENTITY, codeOf(new SegmentRequest(goldenPng, List.of(new PromptSpec("cat",
                List.of(new BoxExemplar(10, 10, 5, 20, true)))), 0.5f, 50, MaskFormat.PNG)));
        assertFalse(segmenter.segment(request(MaskFormat.NONE, 50, "cat")).results().isEmpty(),
                "the engine keeps serving after rejections");
    }

    private static ErrorCode codeOf(SegmentRequest r) {
        return assertThrows(RequestRejectedException.class, () -> segmenter.prepare(r)).code();
    }
}
