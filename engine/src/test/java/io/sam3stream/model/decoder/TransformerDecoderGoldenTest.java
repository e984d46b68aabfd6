package io.sam3stream.model.decoder;

import static org.junit.jupiter.api.Assertions.assertThrows;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.index.NDIndex;
import io.sam3stream.model.heads.GoldenGroundingInputs;
import io.sam3stream.model.heads.GroundingInputs;
import io.sam3stream.model.nn.Params;
import io.sam3stream.model.nn.StageSink;
import io.sam3stream.testing.GoldenStageCheck;
import io.sam3stream.testing.TinyGolden;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TransformerDecoderGoldenTest {

    private static NDManager manager;
    private static TransformerDecoder decoder;

    @BeforeAll
    static void loadDecoder() {
        manager = NDManager.newBaseManager();
        decoder = TransformerDecoder.load(Params.root(TinyGolden.weights(), manager).sub("transformer.decoder"),
                TinyGolden.config());
    }

    @AfterAll
    static void closeManager() {
        manager.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"p0", "p1", "p2", "b0"})
    void everyDecoderStageMatchesUpstream(String goldenCase) {
        try (NDManager m = manager.newSubManager()) {
            GroundingInputs in = GoldenGroundingInputs.of(m, goldenCase);
            GoldenStageCheck check = new GoldenStageCheck(goldenCase);
            try (DecoderOutput out = decoder.forward(in.memory(), in.memoryPos(), in.prompt(), in.promptMask(),
                    check)) {
                check.assertMatched("decoder.hs", "decoder.ref_boxes", "decoder.presence_logits",
                        "decoder.presence_feats");
                TinyGolden.assertStage(goldenCase + ".out.pred_boxes_cxcywh", out.predBoxes());
                TinyGolden.assertStage(goldenCase + ".out.presence_logit", out.lastPresenceLogit());
            }
        }
    }

    @Test
    void rejectsMemoryThatIsNotTheConfiguredGrid() {
        try (NDManager m = manager.newSubManager()) {
            GroundingInputs in = GoldenGroundingInputs.of(m, "p0");
            NDArray cropped = in.memory().get(new NDIndex(":, 0:100"));
            assertThrows(IllegalArgumentException.class,
                    () -> decoder.forward(cropped, in.memoryPos(), in.prompt(), in.promptMask(), StageSink.NONE));
        }
    }
}
