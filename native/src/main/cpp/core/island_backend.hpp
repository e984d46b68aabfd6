// The seam between the validated C API and an implementation of the islands (host or ttnn).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "island_config.hpp"
#include "sam3native.h"
#include "weight_store.hpp"

namespace sam3n {

struct OpenOptions {
    int device_id;
    uint64_t l1_small_size;
    uint64_t trace_region_size;
    int num_threads;
    bool fused;

    static OpenOptions from(const sam3n_open_options& o);
};

/** The fusion encoder's inputs, already checked against each other and the config. */
struct EncoderBatch {
    const float* image_features;  // (feature_batch, tokens, d)
    int feature_batch;            // 1 (shared by every prompt) or batch
    const float* pos;             // (tokens, d)
    const float* prompt;          // (batch, prompt_len, d)
    const uint8_t* prompt_mask;   // (batch, prompt_len), non-zero = padding
    int batch;
    int tokens;
    int prompt_len;
};

/** One implementation of the islands. Calls arrive serialised and with arguments already validated. */
class IslandBackend {
public:
    virtual ~IslandBackend() = default;

    /** Called once, when every required weight is in the store; may take (and so free) them. */
    virtual void prepare(WeightStore& weights) = 0;

    /** image (1, 3, R, R) -> trunk_out (1, C, G, G). */
    virtual void run_backbone(const float* image, float* trunk_out) = 0;

    /** -> memory (batch, tokens, d). */
    virtual void run_fusion_encoder(const EncoderBatch& batch, float* memory) = 0;

    /** One line for logs and /info. */
    virtual std::string describe() const = 0;

    /** The fusion encoder's trace counters since the device opened. */
    virtual sam3n_encoder_trace encoder_trace() const = 0;
};

/** Each library defines these once: the host implementation or the ttnn one. */
std::unique_ptr<IslandBackend> make_island_backend(const OpenOptions& options, const IslandConfig& config);
const char* implementation_name();

}  // namespace sam3n
