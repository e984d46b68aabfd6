// Checks of the sam3n_tensor arguments crossing the C API.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sam3native.h"

namespace sam3n {

/** Bytes per element of a dtype. */
std::size_t dtype_size(sam3n_dtype dtype);

const char* dtype_name(sam3n_dtype dtype);

/** "(1, 3, 1008, 1008)". */
std::string shape_string(const std::vector<int64_t>& shape);

/** The tensor's shape as a vector. */
std::vector<int64_t> shape_of(const sam3n_tensor& t);

/**
 * Checks that `what` is a usable tensor: not null, a known dtype, rank 0..SAM3N_MAX_RANK, no negative
 * dimension, data present and exactly as many bytes as the shape needs. Throws SAM3N_INVALID_ARGUMENT.
 */
void check_tensor(const char* what, const sam3n_tensor* t);

/** check_tensor, then the exact dtype and shape. */
void expect_tensor(const char* what, const sam3n_tensor* t, sam3n_dtype dtype, const std::vector<int64_t>& shape);

/** The values of an F32, BF16 or F16 tensor widened to float. */
std::vector<float> to_floats(const char* what, const sam3n_tensor& t);

}  // namespace sam3n
