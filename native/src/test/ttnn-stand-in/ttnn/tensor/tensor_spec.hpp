// Stand-in for ttnn/api/ttnn/tensor/tensor_spec.hpp at the pinned tt-metal commit: a logical shape and a
// tensor layout.
#pragma once

#include "../../stand_in_pin.hpp"
#include "ttnn/tensor/layout/tensor_layout.hpp"
#include "ttnn/tensor/shape/shape.hpp"

namespace tt::tt_metal {

class TensorSpec {
public:
    TensorSpec(Shape logical_shape, TensorLayout tensor_layout);
};

}  // namespace tt::tt_metal
