package io.sam3stream.engine;

import io.sam3stream.config.Knob;
import io.sam3stream.config.Settings;
import io.sam3stream.device.DeviceException;
import io.sam3stream.device.MklFeatureDispatch;

/**
 * Which float32 kernels libtorch's MKL runs in this process, and why, for the start-up log.
 *
 * <p>libtorch does its float32 matrix products through MKL, which runs its AVX2 kernels on every AMD CPU, also
 * those that execute AVX-512 (Zen 4, Zen 5). Under {@code SAM3_MKL_KERNELS=auto}, on such a CPU, the engine loads
 * {@link MklFeatureDispatch} before libtorch's first product, so that MKL picks its kernels by the CPU's
 * instruction sets as it does on Intel CPUs; on a Zen 5 that made a full-size float32 forward 0.86x as long and an
 * extra prompt 0.73x (docs/PERFORMANCE.md, "MKL's AVX-512 kernels on AMD"). Intel CPUs get those kernels anyway,
 * and AMD CPUs without AVX-512 keep MKL's own (Zen-tuned AVX2) choice, which nothing here has measured against.
 * bfloat16 products do not go through MKL (oneDNN picks its kernels by the instruction sets everywhere).
 *
 * @param byFeatures  true when MKL chooses by the CPU's instruction sets because of this class
 * @param explanation what MKL runs and why, naming the setting
 */
public record MklKernels(boolean byFeatures, String explanation) {

    /** The values {@code SAM3_MKL_KERNELS} takes. */
    public static final String AUTO = "auto";
    public static final String VENDOR = "vendor";

    private static MklKernels applied;

    /**
     * Applies {@code SAM3_MKL_KERNELS} to this process, once: it has to happen before libtorch's first float32
     * product, which the engine ensures by applying it before it starts libtorch. Later calls return the first
     * outcome.
     *
     * @throws io.sam3stream.config.ConfigException if the setting is neither {@code auto} nor {@code vendor}
     */
    public static synchronized MklKernels apply(Settings settings) {
        String setting = settings.getChoice(Knob.SAM3_MKL_KERNELS, AUTO, VENDOR);
        if (applied == null) {
            applied = apply(setting, CpuFeatures.host());
        }
        return applied;
    }

    private static MklKernels apply(String setting, CpuFeatures cpu) {
        String named = Knob.SAM3_MKL_KERNELS + "=" + setting;
        if (!choosesByFeatures(setting, cpu)) {
            return new MklKernels(false, "MKL's own choice (" + named + ")" + whyOwnChoice(setting, cpu));
        }
        try {
            MklFeatureDispatch.load();
            return new MklKernels(true, "AVX-512 (" + named + "): MKL chooses by the CPU's instruction sets, not"
                    + " its vendor, on this AMD CPU");
        } catch (DeviceException e) {
            return new MklKernels(false, "AVX2, MKL's own choice on an AMD CPU, although it has AVX-512 and "
                    + named + ": " + e.getMessage() + "; float32 products then take up to 2.4x as long");
        }
    }

    /** What MKL's own choice means on {@code cpu} where {@code setting} leaves it to MKL. */
    private static String whyOwnChoice(String setting, CpuFeatures cpu) {
        boolean amdWithAvx512 = cpu.isAmd() && cpu.hasAvx512();
        if (setting.equals(VENDOR)) {
            return amdWithAvx512 ? ": AVX2 on this AMD CPU, which has AVX-512" : "";
        }
        return cpu.isAmd() ? ": an AMD CPU without AVX-512" : ": it picks by the instruction sets here";
    }

    /**
     * Whether {@code setting} has MKL choose by the instruction sets on {@code cpu}: under {@code auto}, on AMD CPUs
     * with AVX-512, the only ones where MKL by itself would leave instructions unused.
     */
    static boolean choosesByFeatures(String setting, CpuFeatures cpu) {
        return setting.equals(AUTO) && cpu.isAmd() && cpu.hasAvx512();
    }
}
