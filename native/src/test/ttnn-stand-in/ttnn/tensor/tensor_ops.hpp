// Stand-in for ttnn/api/ttnn/tensor/tensor_ops.hpp at the pinned tt-metal commit: the host -> device copy into
// an allocated tensor (write_tensor's replacement), which traces use to refill their persistent inputs.
#pragma once

#include <optional>

#include "../../stand_in_pin.hpp"
#include "ttnn/common/queue_id.hpp"
#include "ttnn/tensor/tensor.hpp"

namespace tt::tt_metal {

void copy_to_device(const Tensor& host_tensor, Tensor& device_tensor, std::optional<QueueId> cq_id = std::nullopt);

}  // namespace tt::tt_metal
