// Lets Intel MKL choose its kernels by the instructions a CPU has rather than by who made it.
//
// libtorch links MKL statically and does its float32 matrix products (torch.matmul, linear layers, the
// attention of scaled_dot_product_attention) through MKL's sgemm. MKL asks two of its own service functions
// whether the CPU is an Intel one and whether it is a Zen; on an AMD CPU it then runs its AVX2 kernels even where
// the CPU executes AVX-512 (Zen 4, Zen 5), which halves the width of every float32 product. libtorch calls those
// functions through its procedure linkage table, so a definition that the dynamic linker finds first (one in a
// library loaded into the global scope before MKL's first call) takes their place. Answering "Intel, not a Zen"
// makes MKL pick among its kernels by the CPUID feature bits alone, as it does on Intel CPUs; every kernel it can
// then pick checks for the instruction sets it uses, so none runs on a CPU without them.
//
// The engine loads this library only where it measured the gain (AMD CPUs with AVX-512F) and only when
// SAM3_MKL_KERNELS allows it; see docs/PERFORMANCE.md ("MKL's AVX-512 kernels on AMD").

extern "C" {

/** MKL's "is this an Intel CPU" check: yes, so that the feature bits decide. */
__attribute__((visibility("default"))) int mkl_serv_intel_cpu_true() { return 1; }

/** MKL's "is this an AMD Zen" check: no, so that its Zen-specific (AVX2) paths are not taken. */
__attribute__((visibility("default"))) int mkl_serv_cpuiszen() { return 0; }

}  // extern "C"
