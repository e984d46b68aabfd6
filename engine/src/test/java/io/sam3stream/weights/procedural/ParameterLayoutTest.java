package io.sam3stream.weights.procedural;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sam3stream.weights.CheckpointException;
import io.sam3stream.weights.RawTensor;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ParameterLayoutTest {

    @Test
    void bundledLayoutListsExactlyUpstreamsParametersInStateDictOrder() {
        ParamChecksums checksums = ParamChecksums.load();
        Map<String, long[]> layout = ParameterLayout.sam3Image();
        assertEquals(checksums.perTensor().stream().map(ParamChecksums.Entry::name).toList(),
                List.copyOf(layout.keySet()));
        long total = 0;
        for (ParamChecksums.Entry entry : checksums.perTensor()) {
            assertArrayEquals(entry.shape(), layout.get(entry.name()), entry.name());
            total += RawTensor.elementCount(entry.shape());
        }
        assertEquals(1102, layout.size());
        assertEquals(840_509_750L, total);
        assertEquals(checksums.totalElements(), total);
    }

    @Test
    void skipsCommentsAndBlankLines() {
        Map<String, long[]> layout = ParameterLayout.parse(List.of("# header", "", "a.weight\t2,3", "b.bias\t4"),
                "test");
        assertEquals(List.of("a.weight", "b.bias"), List.copyOf(layout.keySet()));
        assertArrayEquals(new long[] {2, 3}, layout.get("a.weight"));
        assertArrayEquals(new long[] {4}, layout.get("b.bias"));
    }

    @Test
    void rejectsALineWithoutAShape() {
        assertRejected("test line 2: expected name<TAB>shape", "a.weight\t2", "b.weight 3");
    }

    @Test
    void rejectsAnInvalidDimension() {
        assertRejected("test line 1: invalid dimension 'x'", "a.weight\t2,x");
        assertRejected("test line 1: invalid dimension '0'", "a.weight\t0");
        assertRejected("test line 1: invalid dimension ''", "a.weight\t");
    }

    @Test
    void rejectsADuplicateName() {
        assertRejected("test line 2: duplicate name a.weight", "a.weight\t2", "a.weight\t2");
    }

    private static void assertRejected(String message, String... lines) {
        CheckpointException e = assertThrows(CheckpointException.class,
                () -> ParameterLayout.parse(List.of(lines), "test"));
        assertTrue(e.getMessage().startsWith(message), e.getMessage());
    }
}
