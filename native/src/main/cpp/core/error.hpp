// Failures inside the library: a status from the C API plus a message for sam3n_last_error.
#pragma once

#include <stdexcept>
#include <string>

#include "sam3native.h"

namespace sam3n {

/** Thrown anywhere inside the library; the C API layer turns it into a status and an error text. */
class Error : public std::runtime_error {
public:
    Error(sam3n_status status, const std::string& message) : std::runtime_error(message), status_(status) {}

    sam3n_status status() const noexcept { return status_; }

private:
    sam3n_status status_;
};

[[noreturn]] inline void fail(sam3n_status status, const std::string& message) { throw Error(status, message); }

inline void require_argument(bool ok, const std::string& message) {
    if (!ok) {
        fail(SAM3N_INVALID_ARGUMENT, message);
    }
}

}  // namespace sam3n
