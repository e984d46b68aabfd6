// Stand-in for ttnn/cpp/ttnn/operations/eltwise/unary/common/unary_op_types.hpp at the pinned tt-metal commit:
// the fused activations a matmul epilogue takes (tt-mlir 19c86fca builds them from a type and parameters).
#pragma once

#include <vector>

#include "../../../../../stand_in_pin.hpp"

namespace ttnn::operations::unary {

enum class UnaryOpType { GELU, RELU, SILU, SIGMOID, TANH, IDENTITY };

struct UnaryWithParam {
    UnaryOpType op_type;
    std::vector<float> params;

    UnaryWithParam(UnaryOpType type, const std::vector<float>& parameters);
    UnaryWithParam(UnaryOpType type, float parameter);
    UnaryWithParam(UnaryOpType type);  // NOLINT: implicit, as upstream
};

}  // namespace ttnn::operations::unary
