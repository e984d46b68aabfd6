package io.sam3stream.parity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class TensorStatisticsTest {

    @Test
    void populationStatisticsOfAHandComputedTensor() {
        // mean 2.5; squared deviations 2.25, 0.25, 0.25, 2.25 sum to 5, / 4 = 1.25
        assertEquals(new TensorStatistics(2.5, Math.sqrt(1.25), 1, 4), TensorStatistics.of(new float[] {4, 1, 3, 2}));
    }

    @Test
    void spreadSurvivesALargeMean() {
        // E[x²] − E[x]² would lose every digit here: the squares are 1e14 and the variance 1
        TensorStatistics s = TensorStatistics.of(new float[] {1e7f - 1, 1e7f + 1, 1e7f - 1, 1e7f + 1});

        assertEquals(1e7, s.mean());
        assertEquals(1.0, s.std());
    }

    @Test
    void emptyTensorHasNaNStatistics() {
        assertTrue(Double.isNaN(TensorStatistics.of(new float[0]).std()));
    }

    @Test
    void readsTheStoredLayoutAsMeanStdMinMax() {
        assertEquals(new TensorStatistics(1, 2, 3, 4), TensorStatistics.fromArray(new double[] {1, 2, 3, 4}));
        assertThrows(IllegalArgumentException.class, () -> TensorStatistics.fromArray(new double[] {1, 2, 3}));
    }
}
