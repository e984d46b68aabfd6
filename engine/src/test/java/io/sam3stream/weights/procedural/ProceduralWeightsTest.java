package io.sam3stream.weights.procedural;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sam3stream.weights.CheckpointException;
import io.sam3stream.weights.DType;
import io.sam3stream.weights.RawTensor;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class ProceduralWeightsTest {

    /** The README's bound for a sequential binary64 sum against the correctly rounded one. */
    private static final double SUM_RELATIVE_TOLERANCE = 1e-9;

    private static ProceduralWeights weights;

    @BeforeAll
    static void open() {
        weights = ProceduralWeights.sam3Image(3);
    }

    @AfterAll
    static void close() {
        weights.close();
    }

    static List<String> namedTensors() {
        return List.copyOf(ParamChecksums.load().named().keySet());
    }

    @Test
    void namesAreTheCanonicalParameterNamesInStateDictOrder() {
        assertEquals(ParamChecksums.load().perTensor().stream().map(ParamChecksums.Entry::name).toList(),
                List.copyOf(weights.names()));
        assertTrue(weights.contains("backbone.vision_backbone.trunk.pos_embed"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("namedTensors")
    void namedTensorsMatchUpstreamsChecksums(String name) {
        ParamChecksums.Named expected = ParamChecksums.load().named().get(name);
        RawTensor tensor = weights.get(expected.name());
        assertEquals(DType.F32, tensor.dtype());
        assertArrayEquals(expected.shape(), tensor.shape());
        assertTrue(tensor.data().isDirect());
        assertEquals(ByteOrder.LITTLE_ENDIAN, tensor.data().order());

        FloatBuffer values = tensor.data().asFloatBuffer();
        for (int i = 0; i < expected.firstBits().length; i++) {
            assertEquals(expected.firstBits()[i], Float.floatToRawIntBits(values.get(i)), "bits of element " + i);
            assertEquals(expected.firstValues()[i], values.get(i), "element " + i);
        }
        double sum = 0;
        double sumOfSquares = 0;
        float min = Float.POSITIVE_INFINITY;
        float max = Float.NEGATIVE_INFINITY;
        for (int i = 0; i < values.limit(); i++) {
            float x = values.get(i);
            sum += x;
            sumOfSquares += (double) x * x;
            min = Math.min(min, x);
            max = Math.max(max, x);
        }
        assertEquals(expected.sum(), sum, SUM_RELATIVE_TOLERANCE * Math.abs(expected.sum()), "sum");
        assertEquals(expected.sumOfSquares(), sumOfSquares, SUM_RELATIVE_TOLERANCE * expected.sumOfSquares(),
                "sum of squares");
        assertEquals(expected.min(), min, "min");
        assertEquals(expected.max(), max, "max");
        assertEquals(expected.bits(), ParamChecksums.BitChecksum.of(tensor), "bit checksums");
    }

    @Test
    void singleThreadedGenerationProducesTheSameBits() {
        String name = "backbone.vision_backbone.trunk.blocks.31.mlp.fc2.weight";
        try (ProceduralWeights sequential = ProceduralWeights.sam3Image(1)) {
            assertEquals(ParamChecksums.load().named().get(name).bits(),
                    ParamChecksums.BitChecksum.of(sequential.get(name)));
        }
    }

    @Test
    void refusesAnUnknownName() {
        CheckpointException e = assertThrows(CheckpointException.class,
                () -> weights.get("detector.backbone.vision_backbone.trunk.pos_embed"));
        assertTrue(e.getMessage().contains("has no tensor detector.backbone"), e.getMessage());
    }

    @Test
    void refusesToGenerateAfterCloseButEarlierTensorsStayReadable() {
        ProceduralWeights closing = ProceduralWeights.sam3Image(2);
        String name = "backbone.vision_backbone.trunk.blocks.0.mlp.fc1.weight";
        RawTensor before = closing.get(name);
        closing.close();
        assertThrows(CheckpointException.class, () -> closing.get(name));
        assertEquals(ParamChecksums.load().perTensor().stream().filter(e -> e.name().equals(name)).findFirst()
                .orElseThrow().bits(), ParamChecksums.BitChecksum.of(before));
    }

    @Test
    void rejectsANonPositiveThreadCount() {
        assertThrows(IllegalArgumentException.class, () -> ProceduralWeights.sam3Image(0));
    }
}
