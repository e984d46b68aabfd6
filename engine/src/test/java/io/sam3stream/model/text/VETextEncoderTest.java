package io.sam3stream.model.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.index.NDIndex;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import io.sam3stream.model.nn.Params;
import io.sam3stream.model.nn.StageSink;
import io.sam3stream.model.prompt.GoldenPromptInputs;
import io.sam3stream.testing.GoldenStageCheck;
import io.sam3stream.testing.TinyGolden;
import java.util.Arrays;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class VETextEncoderTest {

    private static NDManager weights;
    private static VETextEncoder encoder;

    @BeforeAll
    static void load() {
        weights = NDManager.newBaseManager();
        encoder = VETextEncoder.load(Params.root(TinyGolden.weights(), weights), TinyGolden.config().text());
    }

    @AfterAll
    static void release() {
        weights.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"p0", "p1", "p2", "b0"})
    void everyTextStageMatchesUpstream(String goldenCase) {
        try (NDManager manager = NDManager.newBaseManager()) {
            GoldenStageCheck check = new GoldenStageCheck(goldenCase);
            encoder.encode(GoldenPromptInputs.tokenIds(manager, goldenCase), check);
            check.assertMatched("text.transformer_tokens", "text.language_mask", "text.language_features",
                    "text.language_embeds");
        }
    }

    @Test
    void batchedPromptsMatchTheirSingleRuns() {
        try (NDManager manager = NDManager.newBaseManager()) {
            String[] cases = {"p0", "p1", "p2"};
            TextEncoding text = encoder.encode(GoldenPromptInputs.tokenIds(manager, cases), StageSink.NONE);
            for (int i = 0; i < cases.length; i++) {
                GoldenStageCheck.assertRowMatches(cases[i] + ".text.language_features", text.features(), i);
                try (NDArray mask = text.mask().get(new NDIndex("{}:{}", i, i + 1))) {
                    TinyGolden.assertStage(cases[i] + ".text.language_mask", mask);
                }
            }
        }
    }

    @Test
    void computesThroughTheLastRealTokenOfAnyPromptInTheBatch() {
        try (NDManager manager = NDManager.newBaseManager()) {
            long[] ids = new long[2 * 32];
            long[] first = {49406, 320, 0, 1929, 49407};
            long[] second = {49406, 2368, 49407};
            System.arraycopy(first, 0, ids, 0, first.length);
            System.arraycopy(second, 0, ids, 32, second.length);
            assertEquals(5, TextTransformer.computedPositions(manager.create(ids, new Shape(2, 32))));
            assertEquals(3, TextTransformer.computedPositions(manager.create(Arrays.copyOfRange(ids, 32, 64),
                    new Shape(1, 32))));
            assertEquals(1, TextTransformer.computedPositions(manager.zeros(new Shape(1, 32), DataType.INT64)));
        }
    }

    @Test
    void outputsLiveInTheManagerOfTheIds() {
        try (NDManager manager = NDManager.newBaseManager()) {
            TextEncoding text = encoder.encode(GoldenPromptInputs.tokenIds(manager, "p0"), StageSink.NONE);
            assertSame(manager, text.features().getManager());
            assertSame(manager, text.mask().getManager());
        }
    }

    @Test
    void rejectsIdsThatAreNotAFullContextOfInt64() {
        try (NDManager manager = NDManager.newBaseManager()) {
            NDArray shortIds = manager.zeros(new Shape(1, 31), DataType.INT64);
            NDArray intIds = manager.zeros(new Shape(1, 32), DataType.INT32);
            NDArray flatIds = manager.zeros(new Shape(32), DataType.INT64);
            for (NDArray ids : new NDArray[] {shortIds, intIds, flatIds}) {
                assertThrows(IllegalArgumentException.class, () -> encoder.encode(ids, StageSink.NONE));
            }
        }
    }
}
