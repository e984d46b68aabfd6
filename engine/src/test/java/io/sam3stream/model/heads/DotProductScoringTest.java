package io.sam3stream.model.heads;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import io.sam3stream.model.nn.LayerNorm;
import io.sam3stream.model.nn.Linear;
import io.sam3stream.model.nn.Mlp;
import io.sam3stream.model.nn.Params;
import io.sam3stream.testing.TinyGolden;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class DotProductScoringTest {

    @ParameterizedTest
    @ValueSource(strings = {"p0", "p1", "p2", "b0"})
    void scoresEveryLayerOfUpstreamQueriesLikeUpstream(String goldenCase) {
        try (NDManager m = NDManager.newBaseManager()) {
            DotProductScoring scoring = DotProductScoring.load(Params.root(TinyGolden.weights(), m)
                    .sub("dot_prod_scoring"));
            GroundingInputs in = GoldenGroundingInputs.of(m, goldenCase);
            NDArray hs = TinyGolden.output(m, goldenCase + ".decoder.hs");

            NDArray logits = scoring.forward(hs, in.prompt(), in.promptMask());

            TinyGolden.assertStage(goldenCase + ".decoder.class_logits_all_layers", logits);
        }
    }

    /**
     * d = 2 with a zero prompt MLP, so each prompt token becomes LayerNorm(token): (1, −1) stays about (1, −1) and
     * the padded token (100, 300) would become (−1, 1) and cancel it if it were pooled. With identity prompt
     * projection and 1000 × identity query projection, queries (1, −1) and (−1, 1) score ±1414 before the clamp and
     * (0.001, 0) scores 1000 · 0.001 / √2.
     */
    @Test
    void poolsOnlyValidPromptTokensAndClampsToTwelve() {
        try (NDManager m = NDManager.newBaseManager()) {
            Linear zero = new Linear(m.zeros(new Shape(2, 2)), m.zeros(new Shape(2)));
            Linear identity = new Linear(m.create(new float[] {1, 0, 0, 1}, new Shape(2, 2)), m.zeros(new Shape(2)));
            Linear amplify = new Linear(m.create(new float[] {1000, 0, 0, 1000}, new Shape(2, 2)),
                    m.zeros(new Shape(2)));
            DotProductScoring scoring = new DotProductScoring(new Mlp(List.of(zero, zero)),
                    new LayerNorm(m.ones(new Shape(2)), m.zeros(new Shape(2)), LayerNorm.DEFAULT_EPS), identity,
                    amplify);
            NDArray prompt = m.create(new float[] {1, -1, 100, 300}, new Shape(1, 2, 2));
            NDArray mask = m.create(new boolean[] {false, true}, new Shape(1, 2));
            NDArray hs = m.create(new float[] {1, -1, -1, 1, 0.001f, 0}, new Shape(1, 1, 3, 2));

            NDArray logits = scoring.forward(hs, prompt, mask);

            float pooled = (float) (1 / Math.sqrt(1 + LayerNorm.DEFAULT_EPS));
            assertArrayEquals(new long[] {1, 1, 3, 1}, logits.getShape().getShape());
            assertArrayEquals(new float[] {12f, -12f, (float) (pooled / Math.sqrt(2))}, logits.toFloatArray(),
                    1e-5f);
        }
    }
}
