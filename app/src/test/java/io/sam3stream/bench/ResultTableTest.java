package io.sam3stream.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultTableTest {

    private static String print(ResultTable table) {
        StringWriter out = new StringWriter();
        table.print(new PrintWriter(out));
        return out.toString();
    }

    @Test
    void aRowMeetsItsGoalWhenTheRatioIsAtMostTheGoal() {
        ResultTable table = new ResultTable();
        table.add(new ResultTable.Row("fast", "40 ms", "seed 100 ms", 0.4, 0.5));
        table.add(new ResultTable.Row("slow", "60 ms", "seed 100 ms", 0.6, 0.5));
        table.add(new ResultTable.Row("exact", "50 ms", "seed 100 ms", 0.5, 0.5));
        String[] lines = print(table).split("\n");
        assertEquals("| fast | 40 ms | seed 100 ms | 0.400 | ≤ 0.50 | yes |", lines[2]);
        assertEquals("| slow | 60 ms | seed 100 ms | 0.600 | ≤ 0.50 | no |", lines[3]);
        assertTrue(lines[4].endsWith("| yes |"), lines[4]);
    }

    @Test
    void notesHaveNeitherRatioNorGoal() {
        ResultTable table = new ResultTable();
        table.note("resident after build", "3.81 GB", "upstream 4.0 GB");
        assertEquals("| resident after build | 3.81 GB | upstream 4.0 GB | - | - | - |", print(table).split("\n")[2]);
    }

    @Test
    void rowsWrittenAsJsonReadBackTheSameMissingRatiosIncluded(@TempDir Path dir) throws Exception {
        ResultTable table = new ResultTable();
        table.add(new ResultTable.Row("prompt 2 on a cached image", "0.66 s", "full forward 9.10 s", 0.0725, 0.1));
        table.note("precision", "bf16 (AVX512-BF16 attention)", "-");
        Path file = dir.resolve("rows.json");
        table.writeRows(file);
        assertEquals(table.rows(), ResultTable.readRows(file));
    }
}
