// Stand-in for ttnn/api/ttnn/common/queue_id.hpp at the pinned tt-metal commit: a command queue's id (a strong
// integer type upstream, built explicitly from the queue number as tt-mlir 19c86fca does).
#pragma once

#include <cstdint>

#include "../../stand_in_pin.hpp"

namespace tt::tt_metal {

class QueueId {
public:
    explicit constexpr QueueId(std::uint8_t value) : value_(value) {}
    constexpr std::uint8_t operator*() const { return value_; }

private:
    std::uint8_t value_;
};

}  // namespace tt::tt_metal

namespace ttnn {
using QueueId = tt::tt_metal::QueueId;
}  // namespace ttnn
