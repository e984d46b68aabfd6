#include "island_device.hpp"

#include <string>

#include "error.hpp"
#include "tensor_arg.hpp"

namespace sam3n {

OpenOptions OpenOptions::from(const sam3n_open_options& o) {
    require_argument(o.num_threads >= 0, "num_threads must not be negative, got " + std::to_string(o.num_threads));
    require_argument(o.device_id >= 0, "device_id must not be negative, got " + std::to_string(o.device_id));
    return OpenOptions{o.device_id, o.l1_small_size, o.trace_region_size, o.num_threads, o.fused != 0};
}

IslandDevice::IslandDevice(const OpenOptions& options, const IslandConfig& config)
    : config_(config), weights_(island_weight_specs(config)), backend_(make_island_backend(options, config)) {}

int IslandDevice::required_weight_count() const { return static_cast<int>(weights_.specs().size()); }

const WeightSpec& IslandDevice::required_weight(int index) const {
    require_argument(index >= 0 && index < required_weight_count(),
                     "weight index " + std::to_string(index) + " is outside 0.." +
                         std::to_string(required_weight_count() - 1));
    return weights_.specs()[static_cast<std::size_t>(index)];
}

void IslandDevice::require_open() const {
    if (!backend_) {
        fail(SAM3N_INVALID_HANDLE, "the device is closed");
    }
}

void IslandDevice::require_committed() const {
    require_open();
    if (!committed_) {
        fail(SAM3N_INVALID_STATE, "weights are not committed yet: upload every required weight, then commit");
    }
}

void IslandDevice::upload(const char* name, const sam3n_tensor* weight) {
    require_open();
    require_argument(name != nullptr, "weight name is null");
    if (committed_) {
        fail(SAM3N_INVALID_STATE, std::string("weights are committed already; cannot upload '") + name + "'");
    }
    weights_.put(name, *weight);
}

void IslandDevice::commit() {
    require_open();
    if (committed_) {
        fail(SAM3N_INVALID_STATE, "weights are committed already");
    }
    std::vector<std::string> missing = weights_.missing();
    if (!missing.empty()) {
        constexpr std::size_t kListed = 8;
        std::string list;
        for (std::size_t i = 0; i < missing.size() && i < kListed; ++i) {
            list += (i ? ", " : "") + missing[i];
        }
        if (missing.size() > kListed) {
            list += ", ... (" + std::to_string(missing.size() - kListed) + " more)";
        }
        fail(SAM3N_MISSING_WEIGHT, std::to_string(missing.size()) + " of " +
                                       std::to_string(required_weight_count()) +
                                       " required weights were not uploaded: " + list);
    }
    backend_->prepare(weights_);
    committed_ = true;
}

void IslandDevice::run_backbone(const sam3n_tensor* image, const sam3n_tensor* trunk_out) {
    require_committed();
    const VitConfig& v = config_.vit;
    expect_tensor("image", image, SAM3N_F32, {1, 3, v.image_size, v.image_size});
    expect_tensor("trunk_out", trunk_out, SAM3N_F32, {1, v.embed_dim, v.grid(), v.grid()});
    backend_->run_backbone(static_cast<const float*>(image->data), static_cast<float*>(trunk_out->data));
}

void IslandDevice::run_fusion_encoder(const sam3n_tensor* image_features, const sam3n_tensor* pos,
                                      const sam3n_tensor* prompt, const sam3n_tensor* prompt_mask,
                                      const sam3n_tensor* memory) {
    require_committed();
    const int64_t d = config_.encoder.d_model;
    check_tensor("prompt", prompt);
    require_argument(prompt->dtype == SAM3N_F32 && prompt->rank == 3 && prompt->shape[0] > 0 &&
                         prompt->shape[1] > 0 && prompt->shape[2] == d,
                     "prompt: expected F32 (B, P, " + std::to_string(d) + ") with B, P >= 1, got " +
                         dtype_name(prompt->dtype) + " " + shape_string(shape_of(*prompt)));
    const int64_t batch = prompt->shape[0];
    const int64_t prompt_len = prompt->shape[1];
    check_tensor("image_features", image_features);
    require_argument(image_features->dtype == SAM3N_F32 && image_features->rank == 3 &&
                         (image_features->shape[0] == 1 || image_features->shape[0] == batch) &&
                         image_features->shape[1] > 0 && image_features->shape[2] == d,
                     "image_features: expected F32 (" + (batch == 1 ? "1" : "1 or " + std::to_string(batch)) +
                         ", HW, " + std::to_string(d) + "), got " + dtype_name(image_features->dtype) + " " +
                         shape_string(shape_of(*image_features)));
    const int64_t tokens = image_features->shape[1];
    expect_tensor("pos", pos, SAM3N_F32, {tokens, d});
    expect_tensor("prompt_mask", prompt_mask, SAM3N_U8, {batch, prompt_len});
    expect_tensor("memory", memory, SAM3N_F32, {batch, tokens, d});
    const auto* mask = static_cast<const uint8_t*>(prompt_mask->data);
    for (int64_t b = 0; b < batch; ++b) {
        bool any_valid = false;
        for (int64_t p = 0; p < prompt_len; ++p) {
            any_valid = any_valid || mask[b * prompt_len + p] == 0;
        }
        // Upstream's softmax over an all-masked row is NaN; SAM3's prompts always hold the valid geometry CLS.
        require_argument(any_valid, "prompt_mask: every token of prompt " + std::to_string(b) + " is padding");
    }
    EncoderBatch in{static_cast<const float*>(image_features->data),
                    static_cast<int>(image_features->shape[0]),
                    static_cast<const float*>(pos->data),
                    static_cast<const float*>(prompt->data),
                    mask,
                    static_cast<int>(batch),
                    static_cast<int>(tokens),
                    static_cast<int>(prompt_len)};
    backend_->run_fusion_encoder(in, static_cast<float*>(memory->data));
}

const std::string& IslandDevice::describe() {
    require_open();
    description_ = std::string(implementation_name()) + ": " + backend_->describe() +
                   (committed_ ? "" : " (weights not committed)");
    return description_;
}

sam3n_encoder_trace IslandDevice::encoder_trace() const {
    require_open();
    return backend_->encoder_trace();
}

void IslandDevice::close() { backend_.reset(); }

}  // namespace sam3n
