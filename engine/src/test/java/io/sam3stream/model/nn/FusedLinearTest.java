package io.sam3stream.model.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import org.junit.jupiter.api.Test;

/** oneDNN's linear layer, with and without its fused GELU, computes what the op-by-op control computes. */
class FusedLinearTest {

    private static float[] run(ComputeOptions options, Linear layer, NDArray x, boolean gelu) {
        try (ComputeOptions.Scope scope = options.activate()) {
            return (gelu ? layer.forwardGelu(x) : layer.forwardReadOnly(x)).toFloatArray();
        }
    }

    @Test
    void linearAndLinearGeluMatchTheControlOnBatchedSequences() {
        try (NDManager m = NDManager.newBaseManager()) {
            NDArray x = m.randomNormal(new Shape(3, 17, 40));
            Linear layer = new Linear(m.randomNormal(0, 0.2f, new Shape(24, 40), DataType.FLOAT32),
                    m.randomNormal(0, 0.1f, new Shape(24), DataType.FLOAT32));
            assertArrayEquals(run(ComputeOptions.PLAIN, layer, x, false),
                    run(ComputeOptions.OPTIMIZED, layer, x, false), 1e-5f);
            assertArrayEquals(run(ComputeOptions.PLAIN, layer, x, true),
                    run(ComputeOptions.OPTIMIZED, layer, x, true), 1e-5f);
        }
    }

    @Test
    void geluIsTheExactErfForm() {
        try (NDManager m = NDManager.newBaseManager()) {
            // identity weight, zero bias: the output is GELU(x) = x·Φ(x); Φ(1) = 0.8413447, Φ(-2) = 0.0227501
            Linear identity = new Linear(m.create(new float[] {1, 0, 0, 1}, new Shape(2, 2)), m.zeros(new Shape(2)));
            NDArray x = m.create(new float[] {1f, -2f}, new Shape(1, 2));
            assertArrayEquals(new float[] {0.8413447f, -2 * 0.0227501f},
                    run(ComputeOptions.OPTIMIZED, identity, x, true), 2e-6f);
        }
    }
}
