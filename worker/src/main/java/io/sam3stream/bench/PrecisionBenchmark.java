package io.sam3stream.bench;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.core.Linear;
import io.sam3stream.model.nn.FusedOps;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * What bfloat16 buys on this CPU: the largest product of the ViT (fc1: 5184 tokens × 1024 → 4736) in float32, in
 * bfloat16 (both operands narrowed, as a bf16 compute mode would run it), and with a bfloat16-held weight widened
 * to float32 for the product (what {@code SAM3_DTYPE=bf16} does).
 */
public final class PrecisionBenchmark {

    private static final long TOKENS = 5184;
    private static final long IN = 1024;
    private static final long OUT = 4736;

    /** Median wall and CPU milliseconds of each form of the product. */
    public record Result(double fp32Ms, double fp32CpuMs, double bf16Ms, double bf16CpuMs, double bf16WeightMs,
            double bf16WeightCpuMs) {}

    private PrecisionBenchmark() {}

    /** @param runs timed runs of each form, interleaved, after one warm-up round */
    public static Result run(int runs, Consumer<String> log) {
        try (NDManager m = NDManager.newBaseManager()) {
            NDArray x = m.randomNormal(new Shape(TOKENS, IN));
            NDArray w = m.randomNormal(0, 0.03f, new Shape(OUT, IN), DataType.FLOAT32);
            NDArray b = m.randomNormal(0, 0.02f, new Shape(OUT), DataType.FLOAT32);
            NDArray xNarrow = FusedOps.toBfloat16(x);
            NDArray wNarrow = FusedOps.toBfloat16(w);
            NDArray bNarrow = FusedOps.toBfloat16(b);
            double[][] samples = new double[6][runs];
            for (int run = -1; run < runs; run++) {
                double[] f = time(() -> Linear.linear(x, w, b).singletonOrThrow());
                double[] h = time(() -> Linear.linear(xNarrow, wNarrow, bNarrow).singletonOrThrow());
                double[] s = time(() -> {
                    try (NDArray wide = FusedOps.toFloat32(wNarrow)) {
                        return Linear.linear(x, wide, b).singletonOrThrow();
                    }
                });
                if (run >= 0) {
                    double[] all = {f[0], f[1], h[0], h[1], s[0], s[1]};
                    for (int i = 0; i < all.length; i++) {
                        samples[i][run] = all[i];
                    }
                }
            }
            Result r = new Result(median(samples[0]), median(samples[1]), median(samples[2]), median(samples[3]),
                    median(samples[4]), median(samples[5]));
            log.accept(String.format(Locale.ROOT, "fc1 product (%d x %d -> %d): fp32 %.0f ms (cpu %.0f),"
                    + " bf16 %.0f ms (cpu %.0f), bf16 weight widened %.0f ms (cpu %.0f)", TOKENS, IN, OUT, r.fp32Ms(),
                    r.fp32CpuMs(), r.bf16Ms(), r.bf16CpuMs(), r.bf16WeightMs(), r.bf16WeightCpuMs()));
            return r;
        }
    }

    private static double[] time(Supplier<NDArray> product) {
        long wall = System.nanoTime();
        long cpu = CpuClock.nanos();
        product.get().close();
        return new double[] {(System.nanoTime() - wall) / 1e6, (CpuClock.nanos() - cpu) / 1e6};
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        java.util.Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
