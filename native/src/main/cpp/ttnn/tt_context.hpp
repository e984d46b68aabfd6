// The opened p150a and the settings every island op shares: memory and compute configurations, host <-> device
// transfers. Written against the ttnn C++ API of the pinned tt-metal commit (native/cmake/tt-metal-pin.txt).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <hostdevcommon/common_values.hpp>
#include <tt-metalium/core_coord.hpp>
#include <tt-metalium/mesh_device.hpp>

#include "ttnn/distributed/types.hpp"
#include "ttnn/operations/core/compute_kernel/compute_kernel_config.hpp"
#include "ttnn/operations/core/core.hpp"
#include "ttnn/tensor/tensor.hpp"
#include "ttnn/tensor/types.hpp"
#include "ttnn/types.hpp"

#include "../core/island_backend.hpp"
#include "../core/trace_registry.hpp"

namespace sam3n::tenstorrent {

using ::ttnn::Tensor;

class TtContext {
public:
    /** Opens the card as a 1x1 mesh with the seed's knobs and turns the program cache on (traces need it). */
    explicit TtContext(const OpenOptions& options);
    ~TtContext();

    TtContext(const TtContext&) = delete;
    TtContext& operator=(const TtContext&) = delete;

    ::ttnn::MeshDevice* device() const { return device_.get(); }
    int device_id() const { return device_id_; }
    /** Cores available to compute (11 x 10 on a p150a). */
    ::tt::tt_metal::CoreCoord grid() const;

    /** Matmuls and attention: HiFi2, approximate math, bf16 destination (the upstream port's setting). */
    const ::ttnn::DeviceComputeKernelConfig& matmul_config() const { return matmul_config_; }
    /** Norms and softmax: HiFi4 with fp32 accumulation, where bf16 accumulation would cost accuracy. */
    const ::ttnn::DeviceComputeKernelConfig& precise_config() const { return precise_config_; }
    const ::ttnn::MemoryConfig& dram() const { return ::ttnn::DRAM_MEMORY_CONFIG; }

    /**
     * Host floats to a resident device tensor (weights, constants) of the given logical shape, converted (and
     * tilized) on the host. Resident: its contents must survive every graph's replay, so the trace registry is
     * told and any trace captured earlier is re-captured before it replays again.
     */
    Tensor upload(const std::vector<float>& values, const ::ttnn::Shape& shape, ::ttnn::DataType dtype,
                  ::ttnn::Layout layout = ::ttnn::Layout::TILE);

    /** The same conversion into a host tensor, for copy_to_device into a persistent (traced) input. */
    Tensor host_tensor(const std::vector<float>& values, const ::ttnn::Shape& shape, ::ttnn::DataType dtype,
                       ::ttnn::Layout layout = ::ttnn::Layout::TILE) const;

    /**
     * An uninitialised device tensor that stays at one address: a trace's input. Not resident for the trace
     * registry: it is rewritten right before each replay of its own graph, so another trace writing over it in
     * between does no harm.
     */
    Tensor allocate(const ::ttnn::Shape& shape, ::ttnn::DataType dtype,
                    ::ttnn::Layout layout = ::ttnn::Layout::TILE) const;

    /** A device tensor's logical values as floats, in row-major order (blocks until the queue drains). */
    std::vector<float> read(const Tensor& tensor) const;

    /** Which captured traces must be re-captured before they replay (see core/trace_registry.hpp). */
    TraceRegistry& traces() { return traces_; }

private:
    int device_id_;
    std::shared_ptr<::ttnn::MeshDevice> device_;
    ::ttnn::DeviceComputeKernelConfig matmul_config_;
    ::ttnn::DeviceComputeKernelConfig precise_config_;
    TraceRegistry traces_;
};

}  // namespace sam3n::tenstorrent
