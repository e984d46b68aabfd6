package io.sam3stream.testing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.index.NDIndex;
import ai.djl.ndarray.types.DataType;
import io.sam3stream.model.nn.StageSink;
import io.sam3stream.parity.StageComparison;
import io.sam3stream.weights.DType;
import io.sam3stream.weights.RawTensor;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A {@link StageSink} that compares every stage a module records, as it is recorded, with the golden output
 * {@code <case>.<stage>}: float stages under the float tolerance, boolean stages exactly.
 */
public final class GoldenStageCheck implements StageSink {

    private final String goldenCase;
    private final Map<String, String> failures = new LinkedHashMap<>();
    private final Map<String, String> recorded = new LinkedHashMap<>();

    /** @param goldenCase the case prefix of the golden names, e.g. {@code p0} */
    public GoldenStageCheck(String goldenCase) {
        this.goldenCase = goldenCase;
    }

    @Override
    public void record(String name, NDArray value) {
        String stage = goldenCase + "." + name;
        RawTensor reference = TinyGolden.outputs().get(stage);
        if (reference.dtype() == DType.BOOL) {
            boolean same = value.getDataType() == DataType.BOOLEAN
                    && Arrays.equals(value.getShape().getShape(), reference.shape())
                    && Arrays.equals(value.toBooleanArray(), reference.toBooleans());
            recorded.put(name, stage + (same ? " identical" : " differs"));
            if (!same) {
                failures.put(name, stage + ": " + value + " but reference " + Arrays.toString(reference.toBooleans()));
            }
            return;
        }
        StageComparison c = TinyGolden.compare(stage, value);
        recorded.put(name, c.reportLine());
        if (!c.passed()) {
            failures.put(name, c.reportLine());
        }
    }

    /** Asserts that exactly {@code stages} were recorded and each matched its golden output. */
    public void assertMatched(String... stages) {
        assertArrayEquals(Arrays.stream(stages).sorted().toArray(), recorded.keySet().stream().sorted().toArray(),
                "recorded stages");
        assertEquals(Map.of(), failures, () -> "stage mismatches:\n" + String.join("\n", recorded.values()));
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
