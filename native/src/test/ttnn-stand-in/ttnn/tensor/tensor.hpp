// Stand-in for ttnn/api/ttnn/tensor/tensor.hpp at the pinned tt-metal commit: Tensor with the factory, the
// read-back and the getter this code uses, and device allocation from a spec. The MeshDevice forms of
// from_span and create_device_tensor are the ones tt-mlir 19c86fca calls (older trees took an IDevice).
#pragma once

#include <cstdint>
#include <vector>

#include <tt-metalium/mesh_device.hpp>
#include <tt_stl/span.hpp>

#include "../../stand_in_pin.hpp"
#include "ttnn/common/queue_id.hpp"
#include "ttnn/tensor/layout/tensor_layout.hpp"
#include "ttnn/tensor/shape/shape.hpp"
#include "ttnn/tensor/tensor_spec.hpp"
#include "ttnn/tensor/types.hpp"

namespace tt::tt_metal {

class Tensor {
public:
    [[nodiscard]] explicit Tensor() = default;

    /** Host data in row-major order, converted (and tilized) to `spec`; on `device` when one is given. */
    template <typename T>
    [[nodiscard]] static Tensor from_span(ttsl::Span<const T> buffer, const TensorSpec& spec,
                                          distributed::MeshDevice* device = nullptr);

    /** The logical values in row-major order, read back from the device if the tensor lives there. */
    template <typename T>
    [[nodiscard]] std::vector<T> to_vector() const;

    const Shape& logical_shape() const;
};

Tensor create_device_tensor(const TensorSpec& tensor_spec, distributed::MeshDevice* device);

}  // namespace tt::tt_metal

namespace ttnn {
using tt::tt_metal::create_device_tensor;
using Tensor = tt::tt_metal::Tensor;
using TensorSpec = tt::tt_metal::TensorSpec;
}  // namespace ttnn
