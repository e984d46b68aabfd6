// Stand-in for ttnn/cpp/ttnn/operations/core/core.hpp at the pinned tt-metal commit. tt-mlir 19c86fca calls
// the host -> device copy as ::ttnn::copy_to_device after including this header and the tensor headers;
// which upstream header brings that name into ttnn is not confirmed, so it is brought in here.
#pragma once

#include "../../../stand_in_pin.hpp"
#include "ttnn/tensor/tensor.hpp"
#include "ttnn/tensor/tensor_ops.hpp"
#include "ttnn/tensor/types.hpp"
#include "ttnn/types.hpp"

namespace ttnn {
using tt::tt_metal::copy_to_device;
}  // namespace ttnn
