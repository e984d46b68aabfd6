package io.sam3stream.bench;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import io.sam3stream.model.nn.FusedOps;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * What bfloat16 buys on this CPU, operator by operator at the full-size ViT's shapes: each operator in float32 as
 * the engine serves it and in the bfloat16 form {@code SAM3_PRECISION=bf16} runs (float32 in and out, the narrowing
 * and widening included), interleaved run by run so that both see the same machine. These are the figures that
 * decide {@code auto}: the linear layers are the ViT's bulk, and attention is only moved to bfloat16 where it wins.
 */
public final class PrecisionBenchmark {

    private static final long TOKENS = 5184;
    private static final long DIM = 1024;
    private static final long HIDDEN = 4736;
    private static final long HEADS = 16;
    private static final long HEAD_DIM = 64;
    private static final long WINDOWS = 9;
    private static final long WINDOW_TOKENS = 576;

    /** Median wall and CPU milliseconds of one operator in both forms. */
    public record Comparison(String operator, double fp32Ms, double fp32CpuMs, double bf16Ms, double bf16CpuMs) {}

    private PrecisionBenchmark() {}

    /** @param runs timed runs of each form, interleaved, after one warm-up round */
    public static List<Comparison> run(int runs, Consumer<String> log) {
        try (NDManager m = NDManager.newBaseManager()) {
            NDArray x = m.randomNormal(new Shape(1, TOKENS, DIM));
            NDArray w1 = m.randomNormal(0, 0.03f, new Shape(HIDDEN, DIM), DataType.FLOAT32);
            NDArray b1 = m.randomNormal(0, 0.02f, new Shape(HIDDEN), DataType.FLOAT32);
            NDArray w2 = m.randomNormal(0, 0.015f, new Shape(DIM, HIDDEN), DataType.FLOAT32);
            NDArray b2 = m.randomNormal(0, 0.02f, new Shape(DIM), DataType.FLOAT32);
            NDArray w1n = FusedOps.toBfloat16(w1);
            NDArray b1n = FusedOps.toBfloat16(b1);
            NDArray w2n = FusedOps.toBfloat16(w2);
            NDArray b2n = FusedOps.toBfloat16(b2);
            NDArray[] global = qkv(m, 1, TOKENS);
            NDArray[] windows = qkv(m, WINDOWS, WINDOW_TOKENS);
            List<Comparison> out = new ArrayList<>();
            out.add(compare("fc1 product (5184 x 1024 -> 4736)", runs,
                    () -> FusedOps.linear(x, w1, b1), () -> FusedOps.linearBf16(x, w1n, b1n, false), log));
            out.add(compare("ViT MLP (fc1 + GELU + fc2)", runs, () -> {
                try (NDArray hidden = FusedOps.linearGelu(x, w1, b1)) {
                    return FusedOps.linear(hidden, w2, b2);
                }
            }, () -> FusedOps.mlpBf16(x, w1n, b1n, w2n, b2n), log));
            out.add(compare("global attention (16 heads x 5184 tokens)", runs,
                    () -> FusedOps.attention(global[0], global[1], global[2], null),
                    () -> FusedOps.attentionBf16(global[0], global[1], global[2], null), log));
            out.add(compare("windowed attention (9 windows x 16 heads x 576 tokens)", runs,
                    () -> FusedOps.attention(windows[0], windows[1], windows[2], null),
                    () -> FusedOps.attentionBf16(windows[0], windows[1], windows[2], null), log));
            return out;
        }
    }

    private static NDArray[] qkv(NDManager m, long batch, long tokens) {
        Shape shape = new Shape(batch, HEADS, tokens, HEAD_DIM);
        return new NDArray[] {m.randomNormal(shape), m.randomNormal(shape), m.randomNormal(shape)};
    }

    private static Comparison compare(String operator, int runs, Supplier<NDArray> fp32, Supplier<NDArray> bf16,
            Consumer<String> log) {
        double[][] samples = new double[4][runs];
        for (int run = -1; run < runs; run++) {
            double[] f = time(fp32);
            double[] h = time(bf16);
            if (run >= 0) {
                samples[0][run] = f[0];
                samples[1][run] = f[1];
                samples[2][run] = h[0];
                samples[3][run] = h[1];
            }
        }
        Comparison c = new Comparison(operator, median(samples[0]), median(samples[1]), median(samples[2]),
                median(samples[3]));
        log.accept(String.format(Locale.ROOT, "%s: fp32 %.0f ms (cpu %.0f), bf16 %.0f ms (cpu %.0f), load %s",
                operator, c.fp32Ms(), c.fp32CpuMs(), c.bf16Ms(), c.bf16CpuMs(), MachineInfo.loadAverage()));
        return c;
    }

    private static double[] time(Supplier<NDArray> operator) {
        long wall = System.nanoTime();
        long cpu = CpuClock.nanos();
        operator.get().close();
        return new double[] {(System.nanoTime() - wall) / 1e6, (CpuClock.nanos() - cpu) / 1e6};
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
