package io.sam3stream.engine;

/** CPUs of the kinds this project runs on, as {@code /proc/cpuinfo} describes them, for tests of CPU-driven choices. */
final class CpuKinds {

    /** AMD Zen 2: AVX2, no AVX-512. */
    static final CpuFeatures ZEN2 = CpuFeatures.of(CpuFeatures.AMD, "AMD EPYC 7B12", "fpu sse2 avx fma avx2");
    /** AMD Zen 4: AVX-512 with AVX512-BF16, no AMX. */
    static final CpuFeatures ZEN4 = CpuFeatures.of(CpuFeatures.AMD, "AMD EPYC 9B14",
            "avx2 fma avx512f avx512bw avx512vl avx512_bf16 avx512_vnni");
    /** Intel Sapphire Rapids: AVX-512, AVX512-BF16 and AMX. */
    static final CpuFeatures SAPPHIRE_RAPIDS = CpuFeatures.of("GenuineIntel", "Intel Xeon Platinum 8481C",
            "avx2 fma avx512f avx512_bf16 amx_bf16 amx_tile amx_int8");

    private CpuKinds() {}
}
