package io.sam3stream.cli;

import static io.sam3stream.testing.SampledGoldenFile.f64;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sam3stream.parity.TensorStatistics;
import io.sam3stream.testing.SampledGoldenFile;
import io.sam3stream.testing.TinyGolden;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code sam3 parity} on the tiny model against the tiny golden outputs rewritten in the full-size sampled layout,
 * which the command must recognise and check by its own rules (the full layout is {@code TinyGoldenParityTest}'s).
 */
class ParityCommandTest {

    private static final String CHECKPOINT = TinyGolden.dir().resolve("sam3-tiny.pt").toString();

    @TempDir
    Path dir;

    private record Result(int exitCode, String out) {}

    private static Result parity(Path golden) {
        StringWriter out = new StringWriter();
        CommandLine commandLine = Sam3Command.commandLine();
        commandLine.setOut(new PrintWriter(out));
        commandLine.setErr(new PrintWriter(out));
        int exitCode = commandLine.execute("parity", "--checkpoint", CHECKPOINT, "--golden", golden.toString());
        return new Result(exitCode, out.toString());
    }

    @Test
    void sampledLayoutIsCheckedBySamplesAndDerivedStages() {
        Result r = parity(TinySampledGolden.writeFolder(dir, TinySampledGolden.outputs()));

        assertEquals(0, r.exitCode(), r.out());
        assertTrue(r.out().contains(" 0 failed, 0 not implemented"), r.out());
        for (String derived : List.of("p0.seg.pred_masks  ", "p0.decoder.hs_last", "p0.post_t050.query_index",
                "p0.post_t050.mask_area", "p0.post_t050.mask_bbox_xyxy_incl", "p0.post_t050.mask_prob_sum")) {
            assertTrue(r.out().lines().anyMatch(line -> line.startsWith(derived) && line.endsWith("PASS")),
                    derived + " in\n" + r.out());
        }
    }

    @Test
    void sampledStageOffByItsStatisticsFails() {
        TensorStatistics s = TensorStatistics.of(TinyGolden.outputs().get("neck.fpn2").toFloats());
        SampledGoldenFile outputs = TinySampledGolden.outputs()
                .put("neck.fpn2:stats", f64(new double[] {s.mean() + 0.01 * s.std(), s.std(), s.min(), s.max()}, 4));

        Result r = parity(TinySampledGolden.writeFolder(dir, outputs));

        assertEquals(1, r.exitCode(), r.out());
        assertTrue(r.out().contains("FAILED: neck.fpn2\n"), r.out());
    }
}
