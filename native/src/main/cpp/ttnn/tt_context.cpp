#include "tt_context.hpp"

#include <tt_stl/span.hpp>

#include "ttnn/distributed/types.hpp"
#include "ttnn/operations/core/compute_kernel/compute_kernel_config.hpp"
#include "ttnn/tensor/layout/page_config.hpp"
#include "ttnn/tensor/layout/tensor_layout.hpp"
#include "ttnn/tensor/tensor_spec.hpp"

namespace sam3n::tenstorrent {

namespace {

::ttnn::DeviceComputeKernelConfig compute_config(::tt::tt_metal::MathFidelity fidelity, bool approximate,
                                                 bool fp32_accumulation) {
    // The Wormhole config type is what ttnn takes on Blackhole as well.
    ::ttnn::WormholeComputeKernelConfig config;
    config.math_fidelity = fidelity;
    config.math_approx_mode = approximate;
    config.fp32_dest_acc_en = fp32_accumulation;
    config.packer_l1_acc = true;
    return config;
}

::tt::tt_metal::TensorSpec spec(const ::ttnn::Shape& shape, ::ttnn::DataType dtype, ::ttnn::Layout layout) {
    return ::tt::tt_metal::TensorSpec(
        shape, ::tt::tt_metal::TensorLayout(dtype, ::tt::tt_metal::PageConfig(layout), ::ttnn::DRAM_MEMORY_CONFIG));
}

}  // namespace

TtContext::TtContext(const OpenOptions& options)
    : device_id_(options.device_id),
      matmul_config_(compute_config(::tt::tt_metal::MathFidelity::HiFi2, true, false)),
      precise_config_(compute_config(::tt::tt_metal::MathFidelity::HiFi4, false, true)) {
    const std::size_t l1_small = options.l1_small_size == 0 ? DEFAULT_L1_SMALL_SIZE : options.l1_small_size;
    // A 1x1 mesh of the one card (as tt-mlir's openMeshDevice builds it). One command queue: every op and every
    // transfer goes through the device thread in order.
    ::ttnn::MeshDeviceConfig mesh(::ttnn::MeshShape(std::vector<uint32_t>{1, 1}),
                                  ::ttnn::MeshCoordinate(std::vector<uint32_t>{0, 0}),
                                  std::vector<int>{options.device_id});
    device_ = ::ttnn::MeshDevice::create(mesh, l1_small, options.trace_region_size, /*num_command_queues=*/1,
                                         ::tt::tt_metal::DispatchCoreConfig{});
    device_->enable_program_cache();
}

TtContext::~TtContext() {
    if (device_) {
        device_->close();
    }
}

::tt::tt_metal::CoreCoord TtContext::grid() const { return device_->compute_with_storage_grid_size(); }

Tensor TtContext::upload(const std::vector<float>& values, const ::ttnn::Shape& shape, ::ttnn::DataType dtype,
                         ::ttnn::Layout layout) {
    traces_.resident_allocated();
    return Tensor::from_span(::ttsl::Span<const float>(values.data(), values.size()), spec(shape, dtype, layout),
                             device_.get());
}

Tensor TtContext::host_tensor(const std::vector<float>& values, const ::ttnn::Shape& shape, ::ttnn::DataType dtype,
                              ::ttnn::Layout layout) const {
    return Tensor::from_span(::ttsl::Span<const float>(values.data(), values.size()), spec(shape, dtype, layout));
}

Tensor TtContext::allocate(const ::ttnn::Shape& shape, ::ttnn::DataType dtype, ::ttnn::Layout layout) const {
    return ::ttnn::create_device_tensor(spec(shape, dtype, layout), device_.get());
}

std::vector<float> TtContext::read(const Tensor& tensor) const { return tensor.to_vector<float>(); }

}  // namespace sam3n::tenstorrent
