package io.sam3stream.parity;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sam3stream.model.nn.ComputeOptions;
import io.sam3stream.model.nn.Precision;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Both bfloat16 modes, whichever CPU runs the test (without bfloat16 instructions libtorch runs the same products
 * through its generic kernels), meet the bfloat16 bounds on every case of the tiny golden set: every float stage
 * within 1e-2 × (1 + max|ref|) of upstream's float32 outputs, the same kept queries, boxes within 1 px and every
 * kept instance's mask at IoU ≥ 0.98.
 */
class Bf16ParityTest {

    static Stream<Arguments> modes() {
        return Stream.of(Precision.BF16_LINEAR, Precision.BF16).flatMap(p -> Stream.of(
                Arguments.of(p, "sam3-tiny.pt"), Arguments.of(p, "sam3-tiny-hf.safetensors")));
    }

    @ParameterizedTest
    @MethodSource("modes")
    void everyCaseMeetsTheBf16Bounds(Precision precision, String checkpoint) {
        ParityReport report = TinyGoldenParity.assertEveryStageMatches(checkpoint, ComputeOptions.OPTIMIZED,
                precision);

        List<StageVerdict> kept = report.verdicts().stream().filter(v -> v.stage().endsWith(".keep")).toList();
        List<StageVerdict> masks = report.verdicts().stream()
                .filter(v -> v.stage().endsWith(".masks") && v.stage().contains(".post_t")).toList();
        assertTrue(!kept.isEmpty() && !masks.isEmpty(), "the golden set has kept queries and masks to compare");
        // the products really ran in bfloat16: some stage is off by more than float32's bound on it allows
        double fp32Share = ParityBounds.FP32.relative() / ParityBounds.BF16.relative();
        assertTrue(report.verdicts().stream().anyMatch(v -> v instanceof StageComparison c && !c.mask()
                        && c.maxAbsDiff() > fp32Share * c.tolerance()),
                "no stage differs beyond float32 rounding: nothing ran in bfloat16");
    }
}
