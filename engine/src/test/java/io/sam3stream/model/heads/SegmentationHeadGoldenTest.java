package io.sam3stream.model.heads;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import io.sam3stream.model.nn.Params;
import io.sam3stream.testing.GoldenStageCheck;
import io.sam3stream.testing.TinyGolden;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SegmentationHeadGoldenTest {

    private static NDManager manager;
    private static SegmentationHead head;

    @BeforeAll
    static void loadHead() {
        manager = NDManager.newBaseManager();
        head = SegmentationHead.load(Params.root(TinyGolden.weights(), manager).sub("segmentation_head"),
                TinyGolden.config());
    }

    @AfterAll
    static void closeManager() {
        manager.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"p0", "p1", "p2", "b0"})
    void everySegmentationStageMatchesUpstreamGivenUpstreamQueries(String goldenCase) {
        try (NDManager m = manager.newSubManager()) {
            GroundingInputs in = GoldenGroundingInputs.of(m, goldenCase);
            NDArray lastHs = TinyGolden.output(m, goldenCase + ".decoder.hs").get(1);
            GoldenStageCheck check = new GoldenStageCheck(goldenCase);

            NDArray masks = head.forward(in.memory(), in.prompt(), in.promptMask(), in.levelTerms(), lastHs, check);

            check.assertMatched("seg.prompt_attended_memory", "seg.pixel_embed", "seg.instance_embeds",
                    "seg.pred_masks", "seg.semantic_seg");
            TinyGolden.assertStage(goldenCase + ".seg.pred_masks", masks);
        }
    }
}
