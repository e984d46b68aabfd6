package io.sam3stream.model.decoder;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import io.sam3stream.model.nn.Linear;
import io.sam3stream.model.nn.Mlp;
import java.util.List;
import org.junit.jupiter.api.Test;

class BoxRelativePositionBiasTest {

    private static final double LOG2_3 = Math.log(3) / Math.log(2);

    @Test
    void logScaleStretchesByEightAndNormalisesByLog2OfEight() {
        try (NDManager m = NDManager.newBaseManager()) {
            NDArray deltas = m.create(new float[] {0f, 0.125f, -0.125f, 1f, -0.5f});
            float[] expected = {0f, 1f / 3, -1f / 3, (float) (Math.log(9) / Math.log(2) / 3),
                (float) (-Math.log(5) / Math.log(2) / 3)};
            assertArrayEquals(expected, BoxRelativePositionBias.logScale(deltas).toFloatArray(), 1e-6f);
        }
    }

    /**
     * A 2×2 grid, one box with edges x0 = 0.25, y0 = 0.125 (cxcywh 0.5, 0.375, 0.5, 0.5), one head. The MLPs keep
     * only the ReLU of the log-scaled distance to the top edge (rows) and 10× that to the left edge (columns):
     * rows i/2 − 0.125 = (−0.125, 0.375) → (0, 2/3); columns i/2 − 0.25 = (−0.25, 0.25) → (0, 10·log2(3)/3).
     */
    @Test
    void biasOfPixelIsRowTermPlusColumnTermInRowMajorOrder() {
        try (NDManager m = NDManager.newBaseManager()) {
            BoxRelativePositionBias rpb = new BoxRelativePositionBias(firstEdgeOnly(m, 10f), firstEdgeOnly(m, 1f));
            NDArray box = m.create(new float[] {0.5f, 0.375f, 0.5f, 0.5f}, new Shape(1, 1, 4));

            NDArray bias = rpb.bias(box, 2, 2);

            float row1 = 2f / 3;
            float column1 = (float) (10 * LOG2_3 / 3);
            assertArrayEquals(new long[] {1, 1, 1, 4}, bias.getShape().getShape());
            assertArrayEquals(new float[] {0f, column1, row1, row1 + column1}, bias.toFloatArray(), 1e-5f);
        }
    }

    /** MLP(2 → 2 → 1): identity, ReLU, then {@code gain} × the first channel (the box's first edge). */
    private static Mlp firstEdgeOnly(NDManager m, float gain) {
        Linear identity = new Linear(m.create(new float[] {1, 0, 0, 1}, new Shape(2, 2)), m.zeros(new Shape(2)));
        Linear pick = new Linear(m.create(new float[] {gain, 0}, new Shape(1, 2)), m.zeros(new Shape(1)));
        return new Mlp(List.of(identity, pick));
    }
}
