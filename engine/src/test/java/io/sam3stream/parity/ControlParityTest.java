package io.sam3stream.parity;

import io.sam3stream.model.nn.ComputeOptions;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every stage of the tiny golden set matches upstream with the optimisations off (the benchmark's control) and with
 * each one on alone; {@link TinyGoldenParityTest} covers all of them on, as the engine serves.
 */
class ControlParityTest {

    static Stream<ComputeOptions> optionSets() {
        return Stream.of(ComputeOptions.PLAIN,
                new ComputeOptions(true, false, false, false, false, false),
                new ComputeOptions(false, true, false, false, false, false),
                new ComputeOptions(false, false, true, false, false, false),
                new ComputeOptions(false, false, false, true, false, false),
                new ComputeOptions(false, false, false, false, true, false),
                new ComputeOptions(false, false, false, false, false, true));
    }

    @ParameterizedTest
    @MethodSource("optionSets")
    void everyStageMatchesUpstream(ComputeOptions options) {
        TinyGoldenParity.assertEveryStageMatches("sam3-tiny.pt", options);
    }
}
