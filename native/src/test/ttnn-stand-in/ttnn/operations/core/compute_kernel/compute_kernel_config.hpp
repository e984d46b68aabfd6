// Stand-in for ttnn/cpp/ttnn/operations/core/compute_kernel/compute_kernel_config.hpp at the pinned tt-metal
// commit: the Wormhole config (which Blackhole takes too) and the variant the ops accept.
#pragma once

#include <variant>

#include <tt-metalium/base_types.hpp>

#include "../../../../stand_in_pin.hpp"

namespace ttnn {

struct GrayskullComputeKernelConfig {
    tt::tt_metal::MathFidelity math_fidelity = tt::tt_metal::MathFidelity::LoFi;
    bool math_approx_mode = true;
    bool dst_full_sync_en = false;
};

struct WormholeComputeKernelConfig {
    tt::tt_metal::MathFidelity math_fidelity = tt::tt_metal::MathFidelity::LoFi;
    bool math_approx_mode = true;
    bool fp32_dest_acc_en = false;
    bool packer_l1_acc = false;
    bool dst_full_sync_en = false;
};

using DeviceComputeKernelConfig = std::variant<GrayskullComputeKernelConfig, WormholeComputeKernelConfig>;

}  // namespace ttnn
