package io.sam3stream.model.heads;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import io.sam3stream.model.nn.Params;
import io.sam3stream.model.nn.StageSink;
import io.sam3stream.parity.StageComparison;
import io.sam3stream.testing.GoldenStageCheck;
import io.sam3stream.testing.TinyGolden;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class GroundingHeadsGoldenTest {

    private static final String[] BATCH = {"p0", "p1", "p2"};

    private static NDManager manager;
    private static GroundingHeads heads;

    @BeforeAll
    static void loadHeads() {
        manager = NDManager.newBaseManager();
        heads = GroundingHeads.load(Params.root(TinyGolden.weights(), manager), TinyGolden.config());
    }

    @AfterAll
    static void closeManager() {
        manager.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"p0", "p1", "p2", "b0"})
    void everyStageAfterTheEncoderMatchesUpstream(String goldenCase) {
        try (NDManager m = manager.newSubManager()) {
            GoldenStageCheck check = new GoldenStageCheck(goldenCase);

            try (GroundingOutput out = heads.forward(GoldenGroundingInputs.of(m, goldenCase), check)) {
                check.assertMatched("decoder.hs", "decoder.ref_boxes", "decoder.presence_logits",
                        "decoder.presence_feats", "decoder.class_logits_all_layers", "out.pred_logits",
                        "out.pred_boxes_cxcywh", "out.pred_boxes_xyxy", "out.presence_logit",
                        "seg.prompt_attended_memory", "seg.pixel_embed", "seg.instance_embeds", "seg.pred_masks",
                        "seg.semantic_seg");
                TinyGolden.assertStage(goldenCase + ".out.pred_logits", out.predLogits());
                TinyGolden.assertStage(goldenCase + ".out.pred_boxes_cxcywh", out.predBoxes());
                TinyGolden.assertStage(goldenCase + ".out.presence_logit", out.presenceLogit());
                TinyGolden.assertStage(goldenCase + ".seg.pred_masks", out.predMasks());
            }
        }
    }

    /** Three prompts of one image in one batch, the image's pyramid and position encoding shared (batch 1). */
    @Test
    void batchOfPromptsGivesEachPromptsSingleResult() {
        try (NDManager m = manager.newSubManager();
                GroundingOutput batched = heads.forward(GoldenGroundingInputs.batch(m, BATCH), StageSink.NONE)) {
            assertArrayEquals(new long[] {3, 10, 48, 48}, batched.predMasks().getShape().getShape());
            for (int b = 0; b < BATCH.length; b++) {
                try (GroundingOutput single = heads.forward(GoldenGroundingInputs.of(m, BATCH[b]), StageSink.NONE)) {
                    assertSameAsSingle(BATCH[b], "pred_logits", batched, single, b, GroundingOutput::predLogits);
                    assertSameAsSingle(BATCH[b], "pred_boxes", batched, single, b, GroundingOutput::predBoxes);
                    assertSameAsSingle(BATCH[b], "presence_logit", batched, single, b, GroundingOutput::presenceLogit);
                    assertSameAsSingle(BATCH[b], "pred_masks", batched, single, b, GroundingOutput::predMasks);
                }
            }
        }
    }

    private static void assertSameAsSingle(String goldenCase, String name, GroundingOutput batched,
            GroundingOutput single, int prompt, Function<GroundingOutput, NDArray> field) {
        NDArray fromBatch = field.apply(batched).get(prompt).expandDims(0);
        NDArray alone = field.apply(single);
        StageComparison c = StageComparison.of(goldenCase + " batched " + name, fromBatch.getShape().getShape(),
                fromBatch.toFloatArray(), alone.getShape().getShape(), alone.toFloatArray());
        assertTrue(c.passed(), c.reportLine());
    }
}
