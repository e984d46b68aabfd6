#include "cpu_kernels.hpp"

#include <cstdlib>
#include <string>
#include <vector>

#include "../core/error.hpp"

namespace sam3n::host {

const CpuKernels& cpu_kernels_generic();
#ifdef SAM3N_HAVE_AVX2
const CpuKernels& cpu_kernels_avx2();
#endif

namespace {

std::vector<const CpuKernels*> runnable_kernels() {
    std::vector<const CpuKernels*> sets;
#ifdef SAM3N_HAVE_AVX2
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
        sets.push_back(&cpu_kernels_avx2());
    }
#endif
    sets.push_back(&cpu_kernels_generic());
    return sets;
}

const std::vector<const CpuKernels*>& runnable() {
    static const std::vector<const CpuKernels*> sets = runnable_kernels();
    return sets;
}

const CpuKernels& choose() {
    const char* forced = std::getenv("SAM3_NATIVE_ISA");
    if (forced == nullptr || *forced == '\0') {
        return *runnable().front();
    }
    std::string known;
    for (const CpuKernels* k : runnable()) {
        if (forced == std::string(k->name)) {
            return *k;
        }
        known += (known.empty() ? "" : ", ") + std::string(k->name);
    }
    fail(SAM3N_INVALID_ARGUMENT,
         "SAM3_NATIVE_ISA=" + std::string(forced) + " is not available on this CPU (available: " + known + ")");
}

}  // namespace

const CpuKernels& cpu_kernels() {
    static const CpuKernels& chosen = choose();
    return chosen;
}

const CpuKernels* const* available_cpu_kernels(int* count) {
    *count = static_cast<int>(runnable().size());
    return runnable().data();
}

}  // namespace sam3n::host
