package io.sam3stream.model.neck;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import org.junit.jupiter.api.Test;

class SinePositionEncodingTest {

    private static final double TWO_PI = 2 * Math.PI;

    /** d = 8: channels 0-3 encode the row, 4-7 the column, with divisors 1, 1, 100, 100 per axis. */
    private static double expected(int channel, int row, int col, int height, int width) {
        boolean isRow = channel < 4;
        int k = channel % 4;
        double p = isRow ? (row + 1) / (height + 1e-6) * TWO_PI : (col + 1) / (width + 1e-6) * TWO_PI;
        double divisor = k < 2 ? 1 : 100;
        return k % 2 == 0 ? Math.sin(p / divisor) : Math.cos(p / divisor);
    }

    @Test
    void encodesRowsThenColumnsWithSinOnEvenAndCosOnOddChannels() {
        int height = 2;
        int width = 3;
        try (NDManager manager = NDManager.newBaseManager()) {
            NDArray pos = new SinePositionEncoding(8).encode(manager, 1, height, width);
            assertEquals(new Shape(1, 8, height, width), pos.getShape());
            float[] values = pos.toFloatArray();
            for (int c = 0; c < 8; c++) {
                for (int y = 0; y < height; y++) {
                    for (int x = 0; x < width; x++) {
                        assertEquals(expected(c, y, x, height, width), values[(c * height + y) * width + x], 1e-6,
                                "channel " + c + " at (" + y + ", " + x + ")");
                    }
                }
            }
        }
    }

    @Test
    void forwardRepeatsTheEncodingOverTheMapsBatchInItsManager() {
        try (NDManager manager = NDManager.newBaseManager()) {
            NDArray map = manager.zeros(new Shape(2, 5, 3, 4));
            NDArray pos = new SinePositionEncoding(8).forward(map);
            assertEquals(new Shape(2, 8, 3, 4), pos.getShape());
            assertEquals(manager, pos.getManager());
            assertArrayEquals(pos.get(0).toFloatArray(), pos.get(1).toFloatArray(), 0f);
        }
    }

    @Test
    void refusesChannelCountsWithoutWholeSinCosPairsPerAxis() {
        assertThrows(IllegalArgumentException.class, () -> new SinePositionEncoding(6));
    }
}
