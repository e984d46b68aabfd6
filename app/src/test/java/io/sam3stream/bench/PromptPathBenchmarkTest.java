package io.sam3stream.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.List;
import org.junit.jupiter.api.Test;

class PromptPathBenchmarkTest {

    private static ResultTable.Row row(String what, String measured, double ratio) {
        return new ResultTable.Row(what, measured, "-", ratio, Double.NaN);
    }

    @Test
    void aSeriesGathersTheRowsOfOneNameOverEveryRunInOrder() {
        PromptPathBenchmark.Run first = new PromptPathBenchmark.Run(List.of(
                row("full-size forward, 1008², 1 prompt, bf16", "9.10 s", 0.181),
                row("  module decoder", "0.16 s", 0.176),
                row("prompt 2 on a cached image", "0.66 s", 0.072),
                row("prompt 3 on a cached image", "0.64 s", 0.070),
                row("precision", "bf16", Double.NaN)), "1.0 0.9 0.8");
        PromptPathBenchmark.Run second = new PromptPathBenchmark.Run(List.of(
                row("full-size forward, 1008², 1 prompt, bf16", "9.30 s", 0.185),
                row("  module decoder", "0.18 s", 0.198),
                row("prompt 2 on a cached image", "0.90 s", 0.097)), "1.2 1.0 0.8");
        PromptPathBenchmark.Series series = new PromptPathBenchmark.Series("bf16", false, List.of(first, second));

        assertEquals(List.of(0.072, 0.070, 0.097), series.ratios("prompt "));
        assertEquals(List.of(0.176, 0.198), series.ratios("  module decoder"));
        assertEquals(List.of("9.10 s", "9.30 s"), series.measured("full-size forward"));
        assertTrue(series.ratios("precision").isEmpty(), "a row without a ratio gives none");
    }

    @Test
    void aChildRunsThisJavaWithTheLaunchersMainClassAndItsOwnHeap() {
        List<String> command = BenchProcess.command(PromptPathBenchmark.FORWARD_HEAP, PromptPathBenchmark.FORWARD);
        int main = command.indexOf("io.sam3stream.cli.Sam3Command");
        assertTrue(main > 0, command.toString());
        assertEquals(PromptPathBenchmark.FORWARD, command.subList(main + 1, command.size()));
        assertEquals(System.getProperty("java.class.path"), command.get(main - 1));
        List<String> jvm = command.subList(1, main - 1);
        assertTrue(jvm.containsAll(PromptPathBenchmark.FORWARD_HEAP), jvm.toString());
        assertEquals(1, jvm.stream().filter(o -> o.startsWith("-Xmx")).count(), "one heap limit: the child's");
        List<String> plain = BenchProcess.command(List.of(), List.of("bench"));
        assertEquals(ManagementFactory.getRuntimeMXBean().getInputArguments(), plain.subList(1, plain.size() - 4),
                "without heap options the child keeps every option of this JVM");
    }
}
