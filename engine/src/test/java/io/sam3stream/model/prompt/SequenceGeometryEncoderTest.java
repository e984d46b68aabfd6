package io.sam3stream.model.prompt;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.index.NDIndex;
import io.sam3stream.model.fusion.ImageTokens;
import io.sam3stream.model.nn.Params;
import io.sam3stream.model.nn.StageSink;
import io.sam3stream.testing.GoldenStageCheck;
import io.sam3stream.testing.TinyGolden;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SequenceGeometryEncoderTest {

    private static NDManager weights;
    private static SequenceGeometryEncoder encoder;

    @BeforeAll
    static void load() {
        weights = NDManager.newBaseManager();
        encoder = SequenceGeometryEncoder.load(Params.root(TinyGolden.weights(), weights), TinyGolden.config());
    }

    @AfterAll
    static void release() {
        weights.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"p0", "p1", "p2"})
    void textOnlyPromptsEncodeTheClsTokenLikeUpstream(String goldenCase) {
        try (NDManager manager = NDManager.newBaseManager()) {
            GoldenStageCheck check = new GoldenStageCheck(goldenCase);
            encoder.encode(List.of(GeometryPrompt.NONE), GoldenPromptInputs.imageLevel(manager), check);
            check.assertMatched("geo.feats", "geo.mask");
        }
    }

    @Test
    void aPositiveBoxIsPooledAndEncodedLikeUpstream() {
        try (NDManager manager = NDManager.newBaseManager()) {
            GoldenStageCheck check = new GoldenStageCheck("b0");
            encoder.encode(List.of(GoldenPromptInputs.geometry("b0")), GoldenPromptInputs.imageLevel(manager),
                    check);
            check.assertMatched("geo.roi_align", "geo.feats", "geo.mask");
        }
    }

    @Test
    void aPromptWithFewerBoxesIsPaddedAfterItsClsAndKeepsItsSingleRunFeatures() {
        try (NDManager manager = NDManager.newBaseManager()) {
            ImageTokens image = GoldenPromptInputs.imageLevel(manager);
            GeometryEncoding geo = encoder.encode(GoldenPromptInputs.geometries("b0", "p1"), image, StageSink.NONE);

            assertArrayEquals(new boolean[] {false, false, false, true}, geo.mask().toBooleanArray());
            GoldenStageCheck.assertRowMatches("b0.geo.feats", geo.features(), 0);
            try (NDArray cls = geo.features().get(new NDIndex("1:2, 0:1"))) {
                GoldenStageCheck.assertRowMatches("p1.geo.feats", cls, 0);
            }
        }
    }

    /**
     * The compiled encoder attends to the image through the projection matrices while a batch has at most the
     * model's width in query rows (prompts x heads x tokens: 1 x 4 x 2 of the tiny model's 32) and projects the
     * image tokens beyond that (5 x 4 x 2): either way every prompt's features are upstream's.
     */
    @ParameterizedTest
    @ValueSource(ints = {1, 5})
    void batchesOnEitherSideOfTheWidthEncodeEachPromptLikeUpstream(int prompts) {
        try (NDManager manager = NDManager.newBaseManager()) {
            GeometryEncoding geo = encoder.encode(Collections.nCopies(prompts, GoldenPromptInputs.geometry("b0")),
                    GoldenPromptInputs.imageLevel(manager), StageSink.NONE);
            for (int row = 0; row < prompts; row++) {
                GoldenStageCheck.assertRowMatches("b0.geo.feats", geo.features(), row);
            }
        }
    }

    @Test
    void negativeBoxesUseTheOtherLabelEmbedding() {
        try (NDManager manager = NDManager.newBaseManager()) {
            ImageTokens image = GoldenPromptInputs.imageLevel(manager);
            ExemplarBox positive = GoldenPromptInputs.geometry("b0").boxes().get(0);
            ExemplarBox negative = new ExemplarBox(positive.cx(), positive.cy(), positive.width(),
                    positive.height(), false);
            GeometryEncoding geo = encoder.encode(List.of(GeometryPrompt.of(positive), GeometryPrompt.of(negative)),
                    image, StageSink.NONE);
            try (NDArray first = geo.features().get("0");
                    NDArray second = geo.features().get("1")) {
                assertFalse(first.allClose(second, 1e-3, 1e-3, false));
            }
        }
    }

    @Test
    void rejectsAnEmptyBatchAndSeveralImages() {
        try (NDManager manager = NDManager.newBaseManager()) {
            ImageTokens image = GoldenPromptInputs.imageLevel(manager);
            assertThrows(IllegalArgumentException.class, () -> encoder.encode(List.of(), image, StageSink.NONE));
            ImageTokens twoImages = new ImageTokens(image.tokens().repeat(0, 2), image.pos().repeat(0, 2),
                    image.height(), image.width());
            assertThrows(IllegalArgumentException.class,
                    () -> encoder.encode(List.of(GeometryPrompt.NONE), twoImages, StageSink.NONE));
        }
    }
}
