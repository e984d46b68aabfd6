package io.sam3stream.model.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import org.junit.jupiter.api.Test;

/** fbgemm's dynamic int8 layer, which the precision bench measures, computes the float32 product to int8 steps. */
class Int8LinearTest {

    @Test
    void theProductOfBatchedSequencesIsTheFloat32OneWithinItsQuantizationSteps() {
        try (NDManager m = NDManager.newBaseManager()) {
            NDArray x = m.randomNormal(new Shape(2, 33, 64));
            NDArray weight = m.randomNormal(0, 0.1f, new Shape(48, 64), DataType.FLOAT32);
            NDArray bias = m.randomNormal(0, 0.1f, new Shape(48), DataType.FLOAT32);
            float[] expected = FusedOps.linear(x, weight, bias).toFloatArray();
            try (Int8Linear layer = Int8Linear.quantize(weight, bias)) {
                NDArray actual = layer.forward(x);
                assertArrayEquals(new long[] {2, 33, 48}, actual.getShape().getShape());
                float[] values = actual.toFloatArray();
                // x spans about ±4.5 in 255 uint8 steps and the weight ±0.45 in 127 steps: over 64 terms the
                // rounding errors add up to a few hundredths (a product that saturates is off by tenths).
                assertArrayEquals(expected, values, 0.1f);
                double worst = 0;
                for (int i = 0; i < values.length; i++) {
                    worst = Math.max(worst, Math.abs(values[i] - expected[i]));
                }
                assertTrue(worst > 1e-4, "the product ran in int8, not float32 (largest difference " + worst + ")");
            }
        }
    }
}
