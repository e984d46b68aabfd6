package io.sam3stream.model.vision;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import org.junit.jupiter.api.Test;

class WindowPartitionTest {

    @Test
    void windowsAreRowMajorBlocksOfRowMajorTokens() {
        try (NDManager manager = NDManager.newBaseManager()) {
            // (1, 4, 4, 1) map holding y·4 + x
            NDArray map = manager.arange(16f).reshape(1, 4, 4, 1);
            NDArray windows = WindowPartition.partition(map, 2);
            assertEquals(new Shape(4, 2, 2, 1), windows.getShape());
            assertArrayEquals(new float[] {0, 1, 4, 5}, windows.get(0).toFloatArray());
            assertArrayEquals(new float[] {2, 3, 6, 7}, windows.get(1).toFloatArray());
            assertArrayEquals(new float[] {8, 9, 12, 13}, windows.get(2).toFloatArray());
            assertArrayEquals(new float[] {10, 11, 14, 15}, windows.get(3).toFloatArray());
        }
    }

    @Test
    void unpartitionRestoresTheMapOfEveryImageAndChannel() {
        try (NDManager manager = NDManager.newBaseManager()) {
            NDArray map = manager.randomNormal(new Shape(2, 6, 9, 5));
            NDArray windows = WindowPartition.partition(map, 3);
            assertEquals(new Shape(2 * 2 * 3, 3, 3, 5), windows.getShape());
            NDArray restored = WindowPartition.unpartition(windows, 3, 6, 9);
            assertEquals(map.getShape(), restored.getShape());
            assertArrayEquals(map.toFloatArray(), restored.toFloatArray(), 0f);
        }
    }

    @Test
    void refusesMapsThatWouldNeedPadding() {
        try (NDManager manager = NDManager.newBaseManager()) {
            NDArray map = manager.zeros(new Shape(1, 5, 4, 1));
            assertThrows(IllegalArgumentException.class, () -> WindowPartition.partition(map, 2));
            NDArray windows = manager.zeros(new Shape(3, 2, 2, 1));
            assertThrows(IllegalArgumentException.class, () -> WindowPartition.unpartition(windows, 2, 4, 4));
        }
    }
}
