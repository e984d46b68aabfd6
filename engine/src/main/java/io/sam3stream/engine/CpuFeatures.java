package io.sam3stream.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What the CPU this process runs on offers, as the kernel reports it in {@code /proc/cpuinfo}: the model name and
 * the feature flags. Only the flags that decide libtorch's kernels are interpreted here; the set can be built from
 * any flag list, so the precision choice is tested for every kind of CPU on whichever machine runs the tests.
 *
 * @param vendor the CPU's vendor id ({@code GenuineIntel}, {@code AuthenticAMD}), or "unknown"
 * @param model  the CPU's model name, or "unknown"
 * @param flags  the feature flags, lower case, as {@code lscpu} lists them
 */
public record CpuFeatures(String vendor, String model, Set<String> flags) {

    /** The flags that matter to the engine's kernels, in the order {@link #summary} lists them. */
    private static final List<String> REPORTED = List.of("avx2", "fma", "avx512f", "avx512_bf16", "amx_bf16",
            "amx_tile");

    public CpuFeatures {
        flags = Set.copyOf(flags);
    }

    /** The vendor id of AMD's CPUs. */
    public static final String AMD = "AuthenticAMD";

    /** Flags from a space-separated list, as in {@code /proc/cpuinfo}. */
    public static CpuFeatures of(String vendor, String model, String flagList) {
        return new CpuFeatures(vendor, model, Arrays.stream(flagList.trim().split("\\s+"))
                .filter(f -> !f.isEmpty()).collect(Collectors.toSet()));
    }

    /**
     * The CPU this process runs on, from the first processor entry of {@code /proc/cpuinfo}; no flags where that file
     * is unreadable (another OS), which makes every choice fall back to float32.
     */
    public static CpuFeatures host() {
        return Host.FEATURES;
    }

    /** AVX-512 Foundation (Skylake-SP and later Xeons, Zen 4 on). */
    public boolean hasAvx512() {
        return flags.contains("avx512f");
    }

    /** An AMD CPU, whose vendor some libraries (MKL) choose their kernels by. */
    public boolean isAmd() {
        return vendor.equals(AMD);
    }

    /** Native bfloat16 dot products in vector registers (AVX512-BF16: Cooper Lake, Sapphire Rapids, Zen 4 on). */
    public boolean hasAvx512Bf16() {
        return flags.contains("avx512_bf16");
    }

    /** Bfloat16 tile multiplication (AMX: Sapphire Rapids and later Xeons). */
    public boolean hasAmxBf16() {
        return flags.contains("amx_bf16") && flags.contains("amx_tile");
    }

    /** "AMD EPYC; avx2 yes, fma yes, avx512f yes, avx512_bf16 yes, amx_bf16 no, amx_tile no". */
    public String summary() {
        return model + "; " + REPORTED.stream().map(f -> f + (flags.contains(f) ? " yes" : " no"))
                .collect(Collectors.joining(", "));
    }

    /** Read once: the flags do not change while the process runs. */
    private static final class Host {
        static final CpuFeatures FEATURES = read(Path.of("/proc/cpuinfo"));

        private static CpuFeatures read(Path cpuinfo) {
            try {
                List<String> lines = Files.readAllLines(cpuinfo);
                return of(field(lines, "vendor_id"), field(lines, "model name"), field(lines, "flags"));
            } catch (IOException | RuntimeException e) {
                return new CpuFeatures("unknown", "unknown", Set.of());
            }
        }

        private static String field(List<String> lines, String key) {
            return lines.stream()
                    .filter(l -> l.startsWith(key) && l.contains(":"))
                    .map(l -> l.substring(l.indexOf(':') + 1).trim())
                    .findFirst().orElse("");
        }
    }
}
