package io.sam3stream.model.fusion;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.index.NDIndex;
import io.sam3stream.model.neck.ImageMemo;
import io.sam3stream.model.nn.StageSink;
import io.sam3stream.model.prompt.GoldenPromptInputs;
import io.sam3stream.model.prompt.PromptSequence;
import io.sam3stream.testing.GoldenStageCheck;
import io.sam3stream.testing.TinyGolden;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TransformerEncoderFusionTest {

    private static PromptPipeline pipeline;

    @BeforeAll
    static void load() {
        pipeline = new PromptPipeline();
    }

    @AfterAll
    static void release() {
        pipeline.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"p0", "p1", "p2", "b0"})
    void everyPromptSideStageMatchesUpstream(String goldenCase) {
        try (NDManager manager = NDManager.newBaseManager()) {
            GoldenStageCheck check = new GoldenStageCheck(goldenCase);
            ImageTokens image = GoldenPromptInputs.imageLevel(manager);
            PromptSequence prompt = pipeline.prompt(manager, image, check, goldenCase);
            pipeline.fusion().encode(image, new ImageMemo(manager), prompt.features(), prompt.mask(), check);
            List<String> stages = new ArrayList<>(List.of("text.transformer_tokens", "text.language_mask",
                    "text.language_features", "text.language_embeds", "geo.feats", "geo.mask", "prompt.feats",
                    "prompt.mask", "encoder.memory", "encoder.pos_embed"));
            if (!GoldenPromptInputs.geometry(goldenCase).boxes().isEmpty()) {
                stages.add("geo.roi_align");
            }
            check.assertMatched(stages.toArray(String[]::new));
        }
    }

    @Test
    void laterPromptsOnAnImageReuseItsFirstSelfAttentionAndStillMatchUpstream() {
        try (NDManager manager = NDManager.newBaseManager()) {
            ImageTokens image = GoldenPromptInputs.imageLevel(manager);
            ImageMemo memo = new ImageMemo(manager);
            PromptSequence first = pipeline.prompt(manager, image, StageSink.NONE, "p0");
            pipeline.fusion().encode(image, memo, first.features(), first.mask(), StageSink.NONE);
            assertEquals(1, memo.size(), "the first prompt leaves the image's self-attention in the memo");
            for (String later : new String[] {"p1", "b0"}) {
                PromptSequence prompt = pipeline.prompt(manager, image, StageSink.NONE, later);
                NDArray memory = pipeline.fusion().encode(image, memo, prompt.features(), prompt.mask(),
                        StageSink.NONE);
                GoldenStageCheck.assertRowMatches(later + ".encoder.memory", memory, 0);
            }
            assertEquals(1, memo.size(), "later prompts add nothing to the memo");
        }
    }

    @Test
    void textPromptsBatchedTogetherGiveTheirSingleRunMemories() {
        try (NDManager manager = NDManager.newBaseManager()) {
            String[] cases = {"p0", "p1", "p2"};
            ImageTokens image = GoldenPromptInputs.imageLevel(manager);
            PromptSequence prompt = pipeline.prompt(manager, image, StageSink.NONE, cases);
            NDArray memory = pipeline.fusion().encode(image, new ImageMemo(manager), prompt.features(), prompt.mask(), StageSink.NONE);
            for (int i = 0; i < cases.length; i++) {
                GoldenStageCheck.assertRowMatches(cases[i] + ".prompt.feats", prompt.features(), i);
                GoldenStageCheck.assertRowMatches(cases[i] + ".encoder.memory", memory, i);
            }
        }
    }

    /**
     * Eight prompts make the feed-forward products large enough (1152 rows, 32 to 80 wide: 2.9 M multiply-adds) for
     * the compiled graph to hand them to oneDNN; each prompt's memory still matches upstream's.
     */
    @Test
    void promptsBatchedPastTheOneDnnThresholdGiveTheirSingleRunMemories() {
        try (NDManager manager = NDManager.newBaseManager()) {
            String[] cases = {"p0", "p1", "p2", "p0", "p1", "p2", "p0", "p1"};
            ImageTokens image = GoldenPromptInputs.imageLevel(manager);
            PromptSequence prompt = pipeline.prompt(manager, image, StageSink.NONE, cases);
            NDArray memory = pipeline.fusion().encode(image, new ImageMemo(manager), prompt.features(), prompt.mask(),
                    StageSink.NONE);
            for (int i = 0; i < cases.length; i++) {
                GoldenStageCheck.assertRowMatches(cases[i] + ".encoder.memory", memory, i);
            }
        }
    }

    @Test
    void aTextPromptBatchedWithABoxPromptIgnoresItsGeometryPadding() {
        try (NDManager manager = NDManager.newBaseManager()) {
            ImageTokens image = GoldenPromptInputs.imageLevel(manager);
            PromptSequence prompt = pipeline.prompt(manager, image, StageSink.NONE, "b0", "p1");
            NDArray memory = pipeline.fusion().encode(image, new ImageMemo(manager), prompt.features(), prompt.mask(), StageSink.NONE);

            GoldenStageCheck.assertRowMatches("b0.prompt.feats", prompt.features(), 0);
            try (NDArray mask = prompt.mask().get(new NDIndex("0:1"))) {
                TinyGolden.assertStage("b0.prompt.mask", mask);
            }
            // p1's 33 prompt tokens are followed by one padding slot
            try (NDArray unpadded = prompt.features().get(new NDIndex(":, 0:33"));
                    NDArray mask = prompt.mask().get(new NDIndex("1:2, 0:33"));
                    NDArray padding = prompt.mask().get(new NDIndex("1, 33"))) {
                GoldenStageCheck.assertRowMatches("p1.prompt.feats", unpadded, 1);
                TinyGolden.assertStage("p1.prompt.mask", mask);
                assertTrue(padding.getBoolean());
            }
            GoldenStageCheck.assertRowMatches("b0.encoder.memory", memory, 0);
            GoldenStageCheck.assertRowMatches("p1.encoder.memory", memory, 1);
        }
    }
}
