package io.sam3stream.bench;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.Activation;
import io.sam3stream.device.Bf16Attention;
import io.sam3stream.model.nn.Conv2d;
import io.sam3stream.model.nn.FusedOps;
import io.sam3stream.model.nn.Int8Linear;
import io.sam3stream.model.nn.NativeBf16Attention;
import io.sam3stream.model.nn.Precision;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * What reduced precision buys on this CPU, operator by operator at the full-size ViT's shapes (and, where the CPU
 * multiplies bfloat16 natively, the segmentation head's largest convolution): each operator in float32 as the
 * engine serves it and in the bfloat16 form {@code SAM3_PRECISION=bf16} runs (float32 in and out, the narrowing and
 * widening included), interleaved run by run so that both see the same machine; on a CPU with AVX512-BF16, each
 * attention (the ViT's two and the fusion encoder's self-attention) also in sam3's native bfloat16 kernel
 * ({@link NativeBf16Attention}), once per body that runs here (vectors, and tiles where the CPU has AMX); then the
 * linear layers in fbgemm's dynamic int8 form ({@link Int8Linear}), the candidate for CPUs without bfloat16
 * instructions.
 * These are the figures that decide {@code auto}: the linear layers are the ViT's bulk, and attention is only moved
 * to bfloat16 where it wins. Each reduced form also reports how far its result lies from the float32 one.
 */
public final class PrecisionBenchmark {

    private static final long TOKENS = 5184;
    private static final long DIM = 1024;
    private static final long HIDDEN = 4736;
    private static final long HEADS = 16;
    private static final long HEAD_DIM = 64;
    private static final long WINDOWS = 9;
    private static final long WINDOW_TOKENS = 576;
    /** The fusion encoder: 8 heads of 32. */
    private static final long FUSION_HEADS = 8;
    private static final long FUSION_HEAD_DIM = 32;
    /** The segmentation head's pixel decoder: 256 channels at 4× the 72² token grid. */
    private static final long MAP_CHANNELS = 256;
    private static final long MAP_SIDE = 288;
    /** The text encoder: width 1024, MLP 4096, a short prompt's 4 tokens; half of its 24 layers' matrices. */
    private static final long TEXT_WIDTH = 1024;
    private static final long TEXT_HIDDEN = 4096;
    private static final long TEXT_TOKENS = 4;
    private static final int TEXT_LAYERS = 12;
    /** The segmentation head's mask product: 201 queries (with the presence token's row) of 256 channels. */
    private static final long MASK_QUERIES = 201;

    /**
     * Median wall and CPU milliseconds of one operator in float32 and in a reduced form, and the reduced form's
     * largest difference from the float32 result in units of that result's standard deviation.
     */
    public record Comparison(String operator, String reducedForm, double fp32Ms, double fp32CpuMs, double reducedMs,
            double reducedCpuMs, double maxErrorInStd) {}

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
            NDArray[] global = qkv(m, 1, HEADS, TOKENS, HEAD_DIM);
            NDArray[] windows = qkv(m, WINDOWS, HEADS, WINDOW_TOKENS, HEAD_DIM);
            Supplier<NDArray> fc1 = () -> FusedOps.linear(x, w1, b1);
            Supplier<NDArray> mlp = () -> {
                try (NDArray hidden = FusedOps.linearGelu(x, w1, b1)) {
                    return FusedOps.linear(hidden, w2, b2);
                }
            };
            List<Comparison> out = new ArrayList<>();
            out.add(compare("fc1 product (5184 x 1024 -> 4736)", "bf16", runs, fc1,
                    () -> FusedOps.linearBf16(x, w1n, b1n, false), log));
            out.add(compare("ViT MLP (fc1 + GELU + fc2)", "bf16", runs, mlp,
                    () -> FusedOps.mlpBf16(x, w1n, b1n, w2n, b2n), log));
            if (FusedOps.oneDnnMultipliesBf16()) {
                // the form a model with bfloat16 attention serves (Precision.blocksLinearMatrices)
                NDArray w1b = FusedOps.blockBf16LinearWeight(w1n);
                NDArray w2b = FusedOps.blockBf16LinearWeight(w2n);
                out.add(compare("fc1 product (5184 x 1024 -> 4736)", "bf16 blocked", runs, fc1,
                        () -> FusedOps.linearBf16(x, w1b, b1n, false), log));
                out.add(compare("ViT MLP (fc1 + GELU + fc2)", "bf16 blocked", runs, mlp,
                        () -> FusedOps.mlpBf16(x, w1b, b1n, w2b, b2n), log));
            }
            String globalAttention = "global attention (16 heads x 5184 tokens)";
            String windowedAttention = "windowed attention (9 windows x 16 heads x 576 tokens)";
            out.add(compare(globalAttention, "bf16", runs,
                    () -> FusedOps.attention(global[0], global[1], global[2], null),
                    () -> FusedOps.attentionBf16(global[0], global[1], global[2], null), log));
            out.addAll(nativeAttention(globalAttention, global, runs, log));
            out.add(compare(windowedAttention, "bf16", runs,
                    () -> FusedOps.attention(windows[0], windows[1], windows[2], null),
                    () -> FusedOps.attentionBf16(windows[0], windows[1], windows[2], null), log));
            out.addAll(nativeAttention(windowedAttention, windows, runs, log));
            // the fusion encoder's self-attention of the image tokens, 8 heads of 32
            String fusionAttention = "fusion encoder self-attention (8 heads x 5184 tokens x 32)";
            NDArray[] fusion = qkv(m, 1, FUSION_HEADS, TOKENS, FUSION_HEAD_DIM);
            out.add(compare(fusionAttention, "bf16", runs,
                    () -> FusedOps.attention(fusion[0], fusion[1], fusion[2], null),
                    () -> FusedOps.attentionBf16(fusion[0], fusion[1], fusion[2], null), log));
            out.addAll(nativeAttention(fusionAttention, fusion, runs, log));
            out.addAll(textEncoderMlp(m, runs, log));
            out.add(maskProduct(m, runs, log));
            if (FusedOps.oneDnnMultipliesBf16()) {
                out.add(pixelDecoderConvolution(m, runs, log));
            } else {
                // without bfloat16 instructions libtorch convolves bfloat16 on one thread in generic code: more
                // than ten minutes for this one row on a Zen 1, for a mode that auto never picks there
                log.accept("pixel decoder 3x3 convolution: bf16 not measured, this CPU has no bfloat16"
                        + " instructions");
            }
            try (Int8Linear fc1Int8 = Int8Linear.quantize(w1, b1); Int8Linear fc2Int8 = Int8Linear.quantize(w2, b2)) {
                out.add(compare("fc1 product (5184 x 1024 -> 4736)", "int8", runs, fc1, () -> fc1Int8.forward(x),
                        log));
                out.add(compare("ViT MLP (fc1 + GELU + fc2)", "int8", runs, mlp, () -> {
                    try (NDArray hidden = fc1Int8.forward(x); NDArray activated = Activation.gelu(hidden)) {
                        return fc2Int8.forward(activated);
                    }
                }, log));
            }
            return out;
        }
    }

    /**
     * An attention in float32 (libtorch's kernel, as {@code fp32} runs it) against sam3's native bfloat16 kernel
     * ({@link NativeBf16Attention}), once per body of it that runs here (vectors with AVX512-BF16, tiles with AMX),
     * both from the inputs to the heads-merged output the output projection takes; nothing where the kernel does not
     * run.
     *
     * @param heads q, k and v (B, H, L, D)
     */
    private static List<Comparison> nativeAttention(String operator, NDArray[] heads, int runs,
            Consumer<String> log) {
        long[] s = heads[0].getShape().getShape();
        if (!NativeBf16Attention.serves(Precision.BF16_LINEAR, s[3])) {
            log.accept(operator + ": the native bfloat16 kernel does not run on this CPU (no AVX512-BF16)");
            return List.of();
        }
        NDArray[] narrow = new NDArray[3];
        for (int i = 0; i < 3; i++) {
            try (NDArray merged = mergeHeads(heads[i].duplicate())) {
                narrow[i] = FusedOps.toBfloat16(merged);
            }
        }
        List<Comparison> out = new ArrayList<>();
        for (Bf16Attention.Body body : Bf16Attention.Body.values()) {
            if (!Bf16Attention.runs(body)) {
                continue;
            }
            out.add(compare(operator, "bf16 native " + body.name().toLowerCase(Locale.ROOT), runs,
                    () -> mergeHeads(FusedOps.attention(heads[0], heads[1], heads[2], null)), () -> {
                        try (NDArray attended = NativeBf16Attention.attend(narrow[0], narrow[1], narrow[2],
                                (int) s[1], body)) {
                            return FusedOps.toFloat32(attended);
                        }
                    }, log));
        }
        return out;
    }

    /** (B, H, L, D) → (B, L, H·D); closes its argument. */
    private static NDArray mergeHeads(NDArray attended) {
        long[] s = attended.getShape().getShape();
        try (attended; NDArray tokensFirst = attended.transpose(0, 2, 1, 3)) {
            return tokensFirst.reshape(s[0], s[2], s[1] * s[3]);
        }
    }

    /**
     * The text encoder's MLPs for a short prompt (4 tokens) through 12 layers' distinct matrices, so that each product
     * reads its matrix from memory as a prompt does: float32 as {@code fp32} serves it against bfloat16 with plain
     * matrices and, where oneDNN multiplies bfloat16 natively, with the blocked ones the engine holds there
     * ({@link Precision#blocksFewRowMatrices}).
     */
    private static List<Comparison> textEncoderMlp(NDManager m, int runs, Consumer<String> log) {
        NDArray x = m.randomNormal(new Shape(1, TEXT_TOKENS, TEXT_WIDTH));
        NDArray[][] wide = new NDArray[TEXT_LAYERS][];
        NDArray[][] narrow = new NDArray[TEXT_LAYERS][];
        for (int layer = 0; layer < TEXT_LAYERS; layer++) {
            wide[layer] = new NDArray[] {m.randomNormal(0, 0.03f, new Shape(TEXT_HIDDEN, TEXT_WIDTH), DataType.FLOAT32),
                m.randomNormal(0, 0.02f, new Shape(TEXT_HIDDEN), DataType.FLOAT32),
                m.randomNormal(0, 0.015f, new Shape(TEXT_WIDTH, TEXT_HIDDEN), DataType.FLOAT32),
                m.randomNormal(0, 0.02f, new Shape(TEXT_WIDTH), DataType.FLOAT32)};
            narrow[layer] = Arrays.stream(wide[layer]).map(FusedOps::toBfloat16).toArray(NDArray[]::new);
        }
        Supplier<NDArray> fp32 = () -> layers(x, wide, (in, w) -> {
            try (NDArray hidden = FusedOps.linearGelu(in, w[0], w[1])) {
                return FusedOps.linear(hidden, w[2], w[3]);
            }
        });
        Supplier<NDArray> bf16 = () -> layers(x, narrow, (in, w) -> FusedOps.mlpBf16(in, w[0], w[1], w[2], w[3]));
        String operator = "text encoder MLPs (4 tokens, 1024 -> 4096 -> 1024, 12 layers)";
        List<Comparison> out = new ArrayList<>();
        out.add(compare(operator, "bf16", runs, fp32, bf16, log));
        if (Precision.BF16_LINEAR.blocksFewRowMatrices()) {
            for (NDArray[] layer : narrow) {
                for (int matrix : new int[] {0, 2}) {
                    try (NDArray plain = layer[matrix]) {
                        layer[matrix] = FusedOps.blockBf16LinearWeight(plain);
                    }
                }
            }
            out.add(compare(operator, "bf16 blocked", runs, fp32, bf16, log));
        }
        return out;
    }

    /** Each layer's MLP applied to the same input (the rows of a prompt), the last result returned. */
    private static NDArray layers(NDArray x, NDArray[][] weights,
            BiFunction<NDArray, NDArray[], NDArray> mlp) {
        NDArray last = null;
        for (NDArray[] layer : weights) {
            if (last != null) {
                last.close();
            }
            last = mlp.apply(x, layer);
        }
        return last;
    }

    /**
     * The segmentation head's mask product at full size, (201, 256) queries against the (288², 256) channels-last
     * pixel embedding, in float32 both ways: libtorch's matmul (MKL, whose AVX2 path serves AMD CPUs) against
     * oneDNN's inner product with the pixels as its matrix, as the engine's graph multiplies it.
     */
    private static Comparison maskProduct(NDManager m, int runs, Consumer<String> log) {
        NDArray queries = m.randomNormal(new Shape(MASK_QUERIES, MAP_CHANNELS));
        NDArray pixels = m.randomNormal(new Shape(MAP_SIDE * MAP_SIDE, MAP_CHANNELS));
        NDArray noBias = m.zeros(new Shape(MAP_SIDE * MAP_SIDE));
        return compare("mask product (201 x 256 against 288x288 pixels)", "fp32 oneDNN", runs,
                () -> queries.matMul(pixels.transpose()), () -> FusedOps.linear(queries, pixels, noBias), log);
    }

    /** The segmentation head's 3×3 convolution, the engine's {@link Conv2d} layer in float32 and in bfloat16. */
    private static Comparison pixelDecoderConvolution(NDManager m, int runs, Consumer<String> log) {
        NDArray map = m.randomNormal(new Shape(1, MAP_CHANNELS, MAP_SIDE, MAP_SIDE));
        NDArray weight = m.randomNormal(0, 0.02f, new Shape(MAP_CHANNELS, MAP_CHANNELS, 3, 3), DataType.FLOAT32);
        NDArray bias = m.randomNormal(0, 0.02f, new Shape(MAP_CHANNELS), DataType.FLOAT32);
        Conv2d wide = new Conv2d(weight, bias, false);
        Conv2d narrow = new Conv2d(FusedOps.toBfloat16(weight), FusedOps.toBfloat16(bias), true);
        return compare("pixel decoder 3x3 convolution (256 channels at 288x288)", "bf16", runs,
                () -> wide.forward(map), () -> narrow.forward(map), log);
    }

    private static NDArray[] qkv(NDManager m, long batch, long heads, long tokens, long headDim) {
        Shape shape = new Shape(batch, heads, tokens, headDim);
        return new NDArray[] {m.randomNormal(shape), m.randomNormal(shape), m.randomNormal(shape)};
    }

    private static Comparison compare(String operator, String reducedForm, int runs, Supplier<NDArray> fp32,
            Supplier<NDArray> reduced, Consumer<String> log) {
        double[][] samples = new double[4][runs];
        for (int run = -1; run < runs; run++) {
            double[] f = time(fp32);
            double[] h = time(reduced);
            if (run >= 0) {
                samples[0][run] = f[0];
                samples[1][run] = f[1];
                samples[2][run] = h[0];
                samples[3][run] = h[1];
            }
        }
        Comparison c = new Comparison(operator, reducedForm, median(samples[0]), median(samples[1]),
                median(samples[2]), median(samples[3]), maxErrorInStd(fp32, reduced));
        log.accept(String.format(Locale.ROOT, "%s: fp32 %.1f ms (cpu %.1f), %s %.1f ms (cpu %.1f), %s differs by at"
                + " most %.4f of the fp32 result's std, load %s", operator, c.fp32Ms(), c.fp32CpuMs(), reducedForm,
                c.reducedMs(), c.reducedCpuMs(), reducedForm, c.maxErrorInStd(), MachineInfo.loadAverage()));
        return c;
    }

    private static double maxErrorInStd(Supplier<NDArray> fp32, Supplier<NDArray> reduced) {
        try (NDArray expected = fp32.get(); NDArray actual = reduced.get();
                NDArray difference = expected.sub(actual); NDArray magnitude = difference.abs();
                NDArray worst = magnitude.max(); NDArray centred = expected.sub(expected.mean());
                NDArray variance = centred.square().mean()) {
            return worst.getFloat() / Math.sqrt(variance.getFloat());
        }
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
