package io.sam3stream.weights.procedural;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.EnumMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ScaleRuleTest {

    private final ParamChecksums checksums = ParamChecksums.load();

    /** Labels look like "R3 bias" or "R5 matrix gain 0.1"; the gain is 1 when absent. */
    @Test
    void everyTensorGetsTheRuleAndGainUpstreamUsed() {
        for (ParamChecksums.Entry entry : checksums.perTensor()) {
            String label = entry.rule();
            assertEquals(label.substring(0, 2), ScaleRule.of(entry.name(), entry.shape()).id(), entry.name());
            int gainAt = label.indexOf(" gain ");
            double expectedGain = gainAt < 0 ? 1.0 : Double.parseDouble(label.substring(gainAt + 6));
            if (label.startsWith("R5")) {
                assertEquals(expectedGain, ScaleRule.gain(entry.name()), entry.name());
            }
        }
    }

    @Test
    void ruleCountsMatchTheRecipeTable() {
        Map<ScaleRule, Integer> counts = new EnumMap<>(ScaleRule.class);
        for (ParamChecksums.Entry entry : checksums.perTensor()) {
            counts.merge(ScaleRule.of(entry.name(), entry.shape()), 1, Integer::sum);
        }
        assertEquals(Map.of(ScaleRule.PRESENCE_BIAS, 1, ScaleRule.NORM_WEIGHT, 175, ScaleRule.BIAS, 545,
                ScaleRule.EMBEDDING, 8, ScaleRule.FAN_IN, 373), counts);
    }

    /** The named tensors cover every rule, every gain and the transposed-convolution fan-in. */
    @Test
    void scaleAndOffsetOfTheNamedTensorsAreBitExact() {
        for (ParamChecksums.Named named : checksums.named().values()) {
            ScaleRule rule = ScaleRule.of(named.name(), named.shape());
            assertEquals(named.scale(), rule.scale(named.name(), named.shape()), named.name());
            assertEquals(named.offset(), rule.offset(), named.name());
        }
    }

    @Test
    void transposedConvolutionFanInIsItsInputChannels() {
        assertEquals(1024, ScaleRule.fanIn("backbone.vision_backbone.convs.0.dconv_2x2_0.weight",
                new long[] {1024, 512, 2, 2}));
        assertEquals(256 * 3 * 3, ScaleRule.fanIn("backbone.vision_backbone.convs.0.conv_3x3.weight",
                new long[] {256, 256, 3, 3}));
    }
}
