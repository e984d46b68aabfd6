package io.sam3stream.engine;

import static io.sam3stream.engine.CpuKinds.SAPPHIRE_RAPIDS;
import static io.sam3stream.engine.CpuKinds.ZEN2;
import static io.sam3stream.engine.CpuKinds.ZEN4;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import io.sam3stream.config.ConfigException;
import io.sam3stream.config.Settings;
import io.sam3stream.device.MklFeatureDispatch;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class MklKernelsTest {

    @Test
    void onlyAmdCpusWithAvx512AreDispatchedByTheirFeaturesAndOnlyUnderAuto() {
        assertTrue(MklKernels.choosesByFeatures(MklKernels.AUTO, ZEN4));
        assertFalse(MklKernels.choosesByFeatures(MklKernels.VENDOR, ZEN4));
        assertFalse(MklKernels.choosesByFeatures(MklKernels.AUTO, ZEN2), "AVX2-only AMD keeps MKL's Zen kernels");
        assertFalse(MklKernels.choosesByFeatures(MklKernels.AUTO, SAPPHIRE_RAPIDS), "Intel needs nothing");
    }

    @Test
    void anUnknownSettingIsAConfigurationError() {
        assertThrows(ConfigException.class,
                () -> MklKernels.apply(Settings.from(Map.of("SAM3_MKL_KERNELS", "avx512"))));
    }

    /**
     * On this machine: where the decision is to dispatch by features, the global symbol scope, which libtorch's
     * calls into MKL's vendor check reach first, now answers from the dispatch library; and float32 products, run
     * by whichever kernels MKL then picks, still equal a double-precision reference to float rounding.
     */
    @Test
    void thisProcessGetsWhatTheDecisionSaysAndItsProductsStayExact() {
        MklKernels kernels = MklKernels.apply(Settings.from(Map.of()));
        boolean wanted = MklKernels.choosesByFeatures(MklKernels.AUTO, CpuFeatures.host());

        assertEquals(wanted, kernels.byFeatures(), kernels.explanation());
        assertTrue(kernels.explanation().contains("SAM3_MKL_KERNELS=auto"), kernels.explanation());
        if (wanted) {
            String definer = MklFeatureDispatch.definingFile(MklFeatureDispatch.VENDOR_CHECK);
            assertTrue(definer != null && definer.contains("libsam3mkldispatch"), "defined by " + definer);
        }
        int rows = 97;
        int inner = 300;
        int columns = 131;
        Random random = new Random(7);
        float[] a = new float[rows * inner];
        float[] b = new float[inner * columns];
        for (int i = 0; i < a.length; i++) {
            a[i] = (float) random.nextGaussian();
        }
        for (int i = 0; i < b.length; i++) {
            b[i] = (float) random.nextGaussian();
        }
        try (NDManager manager = NDManager.newBaseManager()) {
            NDArray product = manager.create(a, new Shape(rows, inner))
                    .matMul(manager.create(b, new Shape(inner, columns)));
            float[] got = product.toFloatArray();
            for (int r = 0; r < rows; r++) {
                for (int c = 0; c < columns; c++) {
                    double expected = 0;
                    double magnitude = 0;
                    for (int k = 0; k < inner; k++) {
                        double term = (double) a[r * inner + k] * b[k * columns + c];
                        expected += term;
                        magnitude += Math.abs(term);
                    }
                    // the classic bound of a float32 dot product in any summation order: gamma_n = n u / (1 - n u)
                    // of the sum of the terms' magnitudes, with u = 2^-24
                    double nu = inner * 0x1p-24;
                    double bound = nu / (1 - nu) * magnitude;
                    assertEquals(expected, got[r * columns + c], bound, "row " + r + ", column " + c);
                }
            }
        }
    }
}
