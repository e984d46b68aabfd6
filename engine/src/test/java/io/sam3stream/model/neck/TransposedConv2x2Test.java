package io.sam3stream.model.neck;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import io.sam3stream.model.nn.Params;
import io.sam3stream.weights.RawTensor;
import io.sam3stream.weights.WeightSource;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TransposedConv2x2Test {

    /** An in-memory checkpoint. */
    private record Weights(Map<String, RawTensor> tensors) implements WeightSource {
        @Override
        public Set<String> names() {
            return tensors.keySet();
        }

        @Override
        public RawTensor get(String name) {
            return tensors.get(name);
        }

        @Override
        public String description() {
            return "test tensors";
        }

        @Override
        public void close() {}
    }

    @Test
    void eachInputPixelWritesItsOwnTwoByTwoBlockSummedOverInputChannels() {
        // in = 2, out = 1: w[c, 0] = [[1, 2], [3, 4]] for c = 0 and [[10, 20], [30, 40]] for c = 1; bias 0.5
        Weights weights = new Weights(Map.of(
                "up.weight", RawTensor.ofFloats(new float[] {1, 2, 3, 4, 10, 20, 30, 40}, 2, 1, 2, 2),
                "up.bias", RawTensor.ofFloats(new float[] {0.5f}, 1)));
        try (NDManager manager = NDManager.newBaseManager()) {
            TransposedConv2x2 up = TransposedConv2x2.load(Params.root(weights, manager), "up");
            // (1, 2, 1, 2): channel 0 = [1, 2], channel 1 = [0, 1]
            NDArray x = manager.create(new float[] {1, 2, 0, 1}, new Shape(1, 2, 1, 2));
            NDArray y = up.forward(x);
            assertEquals(new Shape(1, 1, 2, 4), y.getShape());
            float[] expected = {
                1.5f, 2.5f, 2 + 10 + 0.5f, 4 + 20 + 0.5f,
                3.5f, 4.5f, 6 + 30 + 0.5f, 8 + 40 + 0.5f,
            };
            assertArrayEquals(expected, y.toFloatArray(), 1e-6f);
        }
    }

    @Test
    void refusesKernelsOtherThanTwoByTwo() {
        Weights weights = new Weights(Map.of(
                "up.weight", RawTensor.ofFloats(new float[9], 1, 1, 3, 3),
                "up.bias", RawTensor.ofFloats(new float[] {0f}, 1)));
        try (NDManager manager = NDManager.newBaseManager()) {
            Params params = Params.root(weights, manager);
            assertThrows(IllegalArgumentException.class, () -> TransposedConv2x2.load(params, "up"));
        }
    }
}
