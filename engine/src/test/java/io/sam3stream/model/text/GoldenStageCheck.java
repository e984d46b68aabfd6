package io.sam3stream.model.text;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.index.NDIndex;
import io.sam3stream.model.nn.StageSink;
import io.sam3stream.parity.StageComparison;
import io.sam3stream.testing.TinyGolden;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/** A stage sink that compares every recorded stage of one golden case with its reference as it arrives. */
public final class GoldenStageCheck implements StageSink {

    private final String goldenCase;
    private final Map<String, StageComparison> results = new LinkedHashMap<>();

    public GoldenStageCheck(String goldenCase) {
        this.goldenCase = goldenCase;
    }

    @Override
    public void record(String name, NDArray value) {
        results.put(name, TinyGolden.compare(goldenCase + "." + name, value));
    }

    /** Asserts that exactly {@code stages} were recorded and that each matches the reference. */
    public void assertMatched(String... stages) {
        assertEquals(Set.of(stages), results.keySet(), "recorded stages");
        assertAll(results.values().stream().map(c -> () -> assertTrue(c.passed(), c.reportLine())));
    }

    /**
     * Asserts that row {@code row} of a batch-first (B, L, C) tensor matches a golden sequence-first (L, 1, C)
     * stage, i.e. that this prompt of a batched run agrees with upstream's single run.
     */
    public static void assertRowMatches(String stage, NDArray batchFirst, int row) {
        try (NDArray one = batchFirst.get(new NDIndex("{}:{}", row, row + 1));
                NDArray seqFirst = one.transpose(1, 0, 2)) {
            TinyGolden.assertStage(stage, seqFirst);
        }
    }
}
