package io.sam3stream.model.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import io.sam3stream.device.Bf16Attention;
import io.sam3stream.device.DeviceException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The native bfloat16 attention against libtorch's float32 attention of the same bfloat16 inputs. Its two roundings
 * (the probabilities before they weight v, and the output) each move an output by at most 2^-9 of the largest |v|,
 * so 2^-8 of it bounds the difference; the float32 scores and sums add orders of magnitude less. Each body of the
 * kernel that runs here is held to it (vectors with AVX512-BF16, tiles with AMX).
 */
class NativeBf16AttentionTest {

    private static void assumeKernel() {
        assumeTrue(Bf16Attention.available(), "SKIPPED: the native bfloat16 attention needs a CPU with AVX512-BF16");
    }

    /** Float32 values that bfloat16 holds exactly, as the bfloat16 projections produce them. */
    private static NDArray bf16Values(NDManager m, Shape shape, float scale) {
        try (NDArray wide = m.randomNormal(shape).mul(scale); NDArray narrow = FusedOps.toBfloat16(wide)) {
            return FusedOps.toFloat32(narrow);
        }
    }

    private static void matchesFloat32Attention(int batch, int qTokens, int kvTokens, int heads, int headDim,
            float spread) {
        for (Bf16Attention.Body body : Bf16Attention.Body.values()) {
            if (Bf16Attention.runs(body)) {
                matchesFloat32Attention(batch, qTokens, kvTokens, heads, headDim, spread, body);
            } else {
                System.out.println("SKIPPED: the native bfloat16 attention on " + body + ": it does not run here");
            }
        }
    }

    private static void matchesFloat32Attention(int batch, int qTokens, int kvTokens, int heads, int headDim,
            float spread, Bf16Attention.Body body) {
        try (NDManager m = NDManager.newBaseManager()) {
            int width = heads * headDim;
            NDArray q = bf16Values(m, new Shape(batch, qTokens, width), spread);
            NDArray k = bf16Values(m, new Shape(batch, kvTokens, width), spread);
            NDArray v = bf16Values(m, new Shape(batch, kvTokens, width), 1f);
            float[] got;
            try (NDArray narrow = NativeBf16Attention.attend(q, k, v, heads, body)) {
                got = FusedOps.toFloat32(narrow).toFloatArray();
            }
            NDArray reference = FusedOps.attention(split(q, heads), split(k, heads), split(v, heads), null)
                    .transpose(0, 2, 1, 3).reshape(batch, qTokens, width);
            float[] want = reference.toFloatArray();
            double bound = Math.scalb(v.abs().max().getFloat(), -8);
            assertEquals(want.length, got.length);
            double worst = 0;
            for (int i = 0; i < want.length; i++) {
                worst = Math.max(worst, Math.abs(got[i] - want[i]));
            }
            assertTrue(worst <= bound, body + ": largest difference " + worst + " over the bound " + bound);
            if (kvTokens > 1) {
                // with one key the output is that key's value, exactly, in either form
                assertTrue(worst > 0, "a result equal to float32 everywhere: the probabilities were not rounded");
            }
        }
    }

    private static NDArray split(NDArray x, int heads) {
        long[] s = x.getShape().getShape();
        return x.reshape(s[0], s[1], heads, s[2] / heads).transpose(0, 2, 1, 3);
    }

    @Test
    void fusionEncoderHeadsMatchFloat32AttentionWithinTheBound() {
        assumeKernel();
        matchesFloat32Attention(2, 300, 300, 8, 32, 1f);
    }

    @Test
    void narrowHeadsPeakedScoresAndUnevenLengthsMatchWithinTheBound() {
        assumeKernel();
        matchesFloat32Attention(1, 70, 129, 4, 8, 3f);
        matchesFloat32Attention(3, 5, 1, 2, 18, 1f);
    }

    @Test
    void callersOnSeveralThreadsGetWhatOneCallerGets() throws Exception {
        assumeKernel();
        try (NDManager m = NDManager.newBaseManager()) {
            NDArray q = bf16Values(m, new Shape(1, 200, 64), 1f);
            NDArray k = bf16Values(m, new Shape(1, 200, 64), 1f);
            NDArray v = bf16Values(m, new Shape(1, 200, 64), 1f);
            float[] alone;
            try (NDArray narrow = NativeBf16Attention.attend(q, k, v, 2)) {
                alone = FusedOps.toFloat32(narrow).toFloatArray();
            }
            ExecutorService pool = Executors.newFixedThreadPool(3);
            try {
                List<Future<float[]>> results = new ArrayList<>();
                for (int i = 0; i < 6; i++) {
                    results.add(pool.submit(() -> {
                        try (NDArray narrow = NativeBf16Attention.attend(q, k, v, 2)) {
                            return FusedOps.toFloat32(narrow).toFloatArray();
                        }
                    }));
                }
                for (Future<float[]> result : results) {
                    assertArrayEquals(alone, result.get(60, TimeUnit.SECONDS));
                }
            } finally {
                pool.shutdownNow();
            }
        }
    }

    @Test
    void bfloat16PrecisionsWithAKernelHeadWidthAreServedWhereTheirBodyRuns() {
        assertFalse(NativeBf16Attention.serves(Precision.FP32, 32));
        assertEquals(Bf16Attention.runs(Bf16Attention.Body.TILES), NativeBf16Attention.serves(Precision.BF16, 32));
        assertFalse(NativeBf16Attention.serves(Precision.BF16, 66));
        assertFalse(NativeBf16Attention.serves(Precision.BF16_LINEAR, 66));
        assertFalse(NativeBf16Attention.serves(Precision.BF16_LINEAR, 7));
        assertEquals(Bf16Attention.available(), NativeBf16Attention.serves(Precision.BF16_LINEAR, 32));
    }

    @Test
    void theBf16LinearPrecisionIsNamedForTheAttentionItRunsHere() {
        assertEquals(Bf16Attention.available() ? "bf16 (AVX512-BF16 attention)" : "bf16 (fp32 attention)",
                Precision.BF16_LINEAR.label());
        assertEquals("bf16", Precision.BF16.label());
    }

    @Test
    void theKernelRefusesHeadsWiderThanTheLimitTheBindingNames() {
        assumeKernel();
        try (NDManager m = NDManager.newBaseManager()) {
            int tooWide = Bf16Attention.MAX_HEAD_DIM + 2;
            NDArray x = bf16Values(m, new Shape(1, 4, tooWide), 1f);
            assertThrows(DeviceException.class, () -> NativeBf16Attention.attend(x, x, x, 1));
            NDArray widest = bf16Values(m, new Shape(1, 4, Bf16Attention.MAX_HEAD_DIM), 1f);
            NativeBf16Attention.attend(widest, widest, widest, 1).close();
        }
    }

    @Test
    void mismatchedShapesAreRefusedBeforeTheKernel() {
        try (NDManager m = NDManager.newBaseManager()) {
            NDArray q = m.zeros(new Shape(1, 4, 16));
            NDArray k = m.zeros(new Shape(2, 4, 16));
            assertThrows(IllegalArgumentException.class, () -> NativeBf16Attention.attend(q, k, k, 2));
        }
    }
}
