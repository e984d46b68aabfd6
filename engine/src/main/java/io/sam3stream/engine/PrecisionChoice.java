package io.sam3stream.engine;

import io.sam3stream.config.Knob;
import io.sam3stream.config.Settings;
import io.sam3stream.model.config.Sam3Config;
import io.sam3stream.model.nn.Precision;

/**
 * The precision the engine computes in, resolved from {@code SAM3_PRECISION} and the CPU, with the reason in words
 * for the start-up log, {@code /info} and the benchmarks.
 *
 * <p>{@code auto} takes bfloat16 only where the CPU multiplies bfloat16 natively, because elsewhere libtorch's
 * bfloat16 products run through generic kernels an order of magnitude slower than its float32 ones. Attention
 * follows the linear layers into libtorch's bfloat16 kernel only with AMX: with AVX512-BF16 alone that kernel is
 * slower than its float32 one (both measured in {@code docs/PERFORMANCE.md}), and the unmasked attentions run in
 * sam3's own bfloat16 kernel instead ({@link io.sam3stream.model.nn.NativeBf16Attention}). {@code auto} also keeps a small
 * model in float32 whatever the CPU: below {@link #MIN_BF16_VIT_WIDTH} every product is so narrow that narrowing and
 * widening its operands costs more than bfloat16 saves (the tiny test model served 92.9 requests/s in bfloat16
 * against 99.3 in float32 on an AMX CPU). An explicit {@code bf16} is obeyed on any CPU and any model, with a warning
 * in the reason where it will be slow.
 *
 * @param precision what the model computes in
 * @param reason    why, naming the setting and the CPU flags that decided it
 */
public record PrecisionChoice(Precision precision, String reason) {

    /** The values {@code SAM3_PRECISION} accepts. */
    private static final String[] SETTINGS = {"auto", "fp32", "bf16"};

    /**
     * The narrowest ViT (token width) {@code auto} computes in bfloat16: the released model's is 1024, where
     * bfloat16 halves the forward on AMX; the tiny test model's is far below, where it is slower.
     */
    public static final int MIN_BF16_VIT_WIDTH = 512;

    /** Resolves the choice from the settings, the CPU this process runs on and the model it will run. */
    public static PrecisionChoice of(Settings settings, Sam3Config model) {
        return resolve(settings.getChoice(Knob.SAM3_PRECISION, SETTINGS), CpuFeatures.host(), model);
    }

    /**
     * @param setting "auto", "fp32" or "bf16"
     * @param cpu     the CPU to choose for
     * @param model   the model to choose for (its ViT width decides {@code auto} on a CPU with bfloat16)
     */
    public static PrecisionChoice resolve(String setting, CpuFeatures cpu, Sam3Config model) {
        PrecisionChoice choice = resolve(setting, cpu);
        int width = model.vit().embedDim();
        if (setting.equals("auto") && !choice.precision().isFp32() && width < MIN_BF16_VIT_WIDTH) {
            return new PrecisionChoice(Precision.FP32, choice.reason() + ", but the model is small (ViT width "
                    + width + " < " + MIN_BF16_VIT_WIDTH + "): its products are too narrow for bfloat16 to pay");
        }
        return choice;
    }

    /**
     * The choice for a model of the released size.
     *
     * @param setting "auto", "fp32" or "bf16"
     * @param cpu     the CPU to choose for
     */
    public static PrecisionChoice resolve(String setting, CpuFeatures cpu) {
        String flags = cpu.hasAmxBf16() ? "amx_bf16" : cpu.hasAvx512Bf16() ? "avx512_bf16 without amx_bf16" : null;
        Precision bf16 = cpu.hasAmxBf16() ? Precision.BF16 : Precision.BF16_LINEAR;
        return switch (setting) {
            case "fp32" -> new PrecisionChoice(Precision.FP32, "SAM3_PRECISION=fp32");
            case "bf16" -> new PrecisionChoice(bf16, flags != null
                    ? "SAM3_PRECISION=bf16 on a CPU with " + flags
                    : "SAM3_PRECISION=bf16 on a CPU without bfloat16 instructions (no amx_bf16, no avx512_bf16):"
                            + " products run through generic kernels, about an order of magnitude slower than fp32");
            case "auto" -> flags != null
                    ? new PrecisionChoice(bf16, "SAM3_PRECISION=auto, the CPU has " + flags)
                    : new PrecisionChoice(Precision.FP32,
                            "SAM3_PRECISION=auto, the CPU has neither amx_bf16 nor avx512_bf16");
            default -> throw new IllegalArgumentException("SAM3_PRECISION is one of auto, fp32, bf16; got " + setting);
        };
    }

    /** "bf16 (AVX512-BF16 attention): SAM3_PRECISION=auto, the CPU has avx512_bf16 without amx_bf16". */
    public String describe() {
        return precision.label() + ": " + reason;
    }
}
