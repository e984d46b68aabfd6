// One open handle: the configuration, the weights on their way in, and the implementation behind them.
// Validates every argument so that implementations only see consistent inputs.
#pragma once

#include <memory>
#include <mutex>
#include <string>

#include "island_backend.hpp"
#include "weight_store.hpp"

namespace sam3n {

class IslandDevice {
public:
    IslandDevice(const OpenOptions& options, const IslandConfig& config);

    int required_weight_count() const;
    const WeightSpec& required_weight(int index) const;

    void upload(const char* name, const sam3n_tensor* weight);
    void commit();

    void run_backbone(const sam3n_tensor* image, const sam3n_tensor* trunk_out);
    void run_fusion_encoder(const sam3n_tensor* image_features, const sam3n_tensor* pos, const sam3n_tensor* prompt,
                            const sam3n_tensor* prompt_mask, const sam3n_tensor* memory);

    /** The implementation's current description; valid until the next call. */
    const std::string& describe();

    /** The fusion encoder's trace counters. */
    sam3n_encoder_trace encoder_trace() const;

    /** Releases the implementation (traces, device) now rather than when the last reference goes. */
    void close();

    /** Serialises calls on this handle. */
    std::mutex& mutex() { return mutex_; }

private:
    void require_open() const;
    void require_committed() const;

    IslandConfig config_;
    WeightStore weights_;
    std::unique_ptr<IslandBackend> backend_;
    bool committed_ = false;
    std::string description_;
    std::mutex mutex_;
};

}  // namespace sam3n
