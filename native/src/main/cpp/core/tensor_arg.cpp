#include "tensor_arg.hpp"

#include <cstring>

#include "error.hpp"

namespace sam3n {

namespace {

float bf16_to_float(uint16_t bits) {
    uint32_t wide = static_cast<uint32_t>(bits) << 16;
    float f;
    std::memcpy(&f, &wide, sizeof f);
    return f;
}

// IEEE 754 binary16 to binary32; exact, every half value is representable.
float f16_to_float(uint16_t half) {
    uint32_t sign = static_cast<uint32_t>(half & 0x8000u) << 16;
    uint32_t exponent = (half >> 10) & 0x1fu;
    uint32_t mantissa = half & 0x3ffu;
    uint32_t bits;
    if (exponent == 0x1f) {
        bits = sign | 0x7f800000u | (mantissa << 13);
    } else if (exponent == 0) {
        float magnitude = static_cast<float>(mantissa) * 0x1p-24f;
        return sign ? -magnitude : magnitude;
    } else {
        bits = sign | ((exponent + 112) << 23) | (mantissa << 13);
    }
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}

}  // namespace

std::size_t dtype_size(sam3n_dtype dtype) {
    switch (dtype) {
        case SAM3N_F32: return 4;
        case SAM3N_BF16:
        case SAM3N_F16: return 2;
        case SAM3N_U8: return 1;
    }
    return 0;
}

const char* dtype_name(sam3n_dtype dtype) {
    switch (dtype) {
        case SAM3N_F32: return "F32";
        case SAM3N_BF16: return "BF16";
        case SAM3N_F16: return "F16";
        case SAM3N_U8: return "U8";
    }
    return "unknown";
}

std::string shape_string(const std::vector<int64_t>& shape) {
    std::string s = "(";
    for (std::size_t i = 0; i < shape.size(); ++i) {
        s += (i ? ", " : "") + std::to_string(shape[i]);
    }
    return s + (shape.size() == 1 ? ",)" : ")");
}

std::vector<int64_t> shape_of(const sam3n_tensor& t) { return std::vector<int64_t>(t.shape, t.shape + t.rank); }

void check_tensor(const char* what, const sam3n_tensor* t) {
    std::string name(what);
    require_argument(t != nullptr, name + ": tensor is null");
    require_argument(dtype_size(t->dtype) != 0, name + ": unknown dtype code " + std::to_string(t->dtype));
    require_argument(t->rank >= 0 && t->rank <= SAM3N_MAX_RANK,
                     name + ": rank " + std::to_string(t->rank) + " is outside 0.." + std::to_string(SAM3N_MAX_RANK));
    uint64_t count = 1;
    for (int i = 0; i < t->rank; ++i) {
        require_argument(t->shape[i] >= 0, name + ": negative dimension in shape " + shape_string(shape_of(*t)));
        // Dimensions come from the caller: bound them before multiplying so the byte count cannot wrap.
        require_argument(t->shape[i] <= (int64_t{1} << 40) && count <= (uint64_t{1} << 40),
                         name + ": shape " + shape_string(shape_of(*t)) + " is too large");
        count *= static_cast<uint64_t>(t->shape[i]);
    }
    uint64_t needed = count * dtype_size(t->dtype);
    require_argument(t->bytes == needed, name + ": shape " + shape_string(shape_of(*t)) + " of " +
                                             dtype_name(t->dtype) + " needs " + std::to_string(needed) +
                                             " bytes but the buffer holds " + std::to_string(t->bytes));
    require_argument(t->data != nullptr || needed == 0, name + ": data pointer is null");
}

void expect_tensor(const char* what, const sam3n_tensor* t, sam3n_dtype dtype, const std::vector<int64_t>& shape) {
    check_tensor(what, t);
    require_argument(t->dtype == dtype, std::string(what) + ": expected dtype " + dtype_name(dtype) + ", got " +
                                            dtype_name(t->dtype));
    require_argument(shape_of(*t) == shape, std::string(what) + ": expected shape " + shape_string(shape) +
                                                ", got " + shape_string(shape_of(*t)));
}

std::vector<float> to_floats(const char* what, const sam3n_tensor& t) {
    std::size_t n = 1;
    for (int i = 0; i < t.rank; ++i) {
        n *= static_cast<std::size_t>(t.shape[i]);
    }
    std::vector<float> out(n);
    switch (t.dtype) {
        case SAM3N_F32:
            std::memcpy(out.data(), t.data, n * sizeof(float));
            break;
        case SAM3N_BF16:
        case SAM3N_F16: {
            const auto* in = static_cast<const uint16_t*>(t.data);
            for (std::size_t i = 0; i < n; ++i) {
                uint16_t bits;
                std::memcpy(&bits, in + i, sizeof bits);
                out[i] = t.dtype == SAM3N_BF16 ? bf16_to_float(bits) : f16_to_float(bits);
            }
            break;
        }
        default:
            fail(SAM3N_INVALID_ARGUMENT,
                 std::string(what) + ": weights must be F32, BF16 or F16, got " + dtype_name(t.dtype));
    }
    return out;
}

}  // namespace sam3n
