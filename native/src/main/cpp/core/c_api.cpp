// The extern "C" surface: a registry of open handles, and a guard around every call that turns C++
// exceptions into a status plus the calling thread's error text.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <unordered_map>

#include "error.hpp"
#include "island_device.hpp"
#include "sam3native.h"

namespace sam3n {
namespace {

thread_local std::string last_error;

/**
 * Open handles by number. Numbers are never reused, so a stale handle fails cleanly instead of reaching
 * another device; a call holds a shared_ptr, so a concurrent close cannot free a device under it.
 */
class Registry {
public:
    sam3n_handle add(std::shared_ptr<IslandDevice> device) {
        std::lock_guard<std::mutex> lock(mutex_);
        sam3n_handle handle = next_++;
        open_.emplace(handle, std::move(device));
        return handle;
    }

    std::shared_ptr<IslandDevice> find(sam3n_handle handle) {
        std::lock_guard<std::mutex> lock(mutex_);
        auto it = open_.find(handle);
        if (it == open_.end()) {
            fail(SAM3N_INVALID_HANDLE, not_open(handle));
        }
        return it->second;
    }

    std::shared_ptr<IslandDevice> remove(sam3n_handle handle) {
        std::lock_guard<std::mutex> lock(mutex_);
        auto it = open_.find(handle);
        if (it == open_.end()) {
            fail(SAM3N_INVALID_HANDLE, not_open(handle));
        }
        std::shared_ptr<IslandDevice> device = std::move(it->second);
        open_.erase(it);
        return device;
    }

private:
    static std::string not_open(sam3n_handle handle) {
        return "handle " + std::to_string(handle) + " is not open (closed already, or never opened)";
    }

    std::mutex mutex_;
    std::unordered_map<sam3n_handle, std::shared_ptr<IslandDevice>> open_;
    sam3n_handle next_ = 1;
};

Registry& registry() {
    static Registry instance;
    return instance;
}

/** Sets the calling thread's error text; never throws (a failing allocation leaves a short text that fits the
 *  string's inline buffer). */
void record_error(const char* call, const char* reason, const char* detail = "") noexcept {
    try {
        last_error.assign(call).append(": ").append(reason).append(detail);
    } catch (...) {
        last_error.assign("out of memory");
    }
}

template <typename Body>
sam3n_status guarded(const char* call, Body&& body) noexcept {
    last_error.clear();
    try {
        body();
        return SAM3N_OK;
    } catch (const Error& e) {
        record_error(call, e.what());
        return e.status();
    } catch (const std::bad_alloc&) {
        record_error(call, "out of host memory");
        return SAM3N_OUT_OF_MEMORY;
    } catch (const std::exception& e) {
        record_error(call, "unexpected failure: ", e.what());
        return SAM3N_INTERNAL;
    } catch (...) {
        record_error(call, "unexpected failure of unknown type");
        return SAM3N_INTERNAL;
    }
}

/** Runs body on the open device, holding the device's lock. */
template <typename Body>
sam3n_status on_device(const char* call, sam3n_handle handle, Body&& body) noexcept {
    return guarded(call, [&] {
        std::shared_ptr<IslandDevice> device = registry().find(handle);
        std::lock_guard<std::mutex> lock(device->mutex());
        body(*device);
    });
}

void require_out(const void* out, const char* what) {
    require_argument(out != nullptr, std::string(what) + " output pointer is null");
}

}  // namespace
}  // namespace sam3n

using sam3n::IslandDevice;

extern "C" {

int32_t sam3n_api_version(void) { return SAM3N_API_VERSION; }

const char* sam3n_implementation(void) { return sam3n::implementation_name(); }

const char* sam3n_last_error(void) { return sam3n::last_error.c_str(); }

sam3n_status sam3n_open(const sam3n_open_options* options, const sam3n_vit_config* vit,
                        const sam3n_encoder_config* encoder, sam3n_handle* handle) {
    return sam3n::guarded("open", [&] {
        sam3n::require_argument(options != nullptr && vit != nullptr && encoder != nullptr,
                                "options, vit and encoder configs are required");
        sam3n::require_out(handle, "handle");
        sam3n::IslandConfig config{sam3n::VitConfig::from(*vit), sam3n::EncoderConfig::from(*encoder)};
        auto device = std::make_shared<IslandDevice>(sam3n::OpenOptions::from(*options), config);
        *handle = sam3n::registry().add(std::move(device));
    });
}

sam3n_status sam3n_required_weight_count(sam3n_handle handle, int32_t* count) {
    return sam3n::on_device("required_weight_count", handle, [&](IslandDevice& d) {
        sam3n::require_out(count, "count");
        *count = d.required_weight_count();
    });
}

sam3n_status sam3n_required_weight(sam3n_handle handle, int32_t index, const char** name, int32_t* rank,
                                   int64_t* shape) {
    return sam3n::on_device("required_weight", handle, [&](IslandDevice& d) {
        sam3n::require_out(name, "name");
        sam3n::require_out(rank, "rank");
        sam3n::require_out(shape, "shape");
        const sam3n::WeightSpec& spec = d.required_weight(index);
        *name = spec.name.c_str();
        *rank = static_cast<int32_t>(spec.shape.size());
        std::copy(spec.shape.begin(), spec.shape.end(), shape);
    });
}

sam3n_status sam3n_upload_weight(sam3n_handle handle, const char* name, const sam3n_tensor* weight) {
    return sam3n::on_device("upload_weight", handle, [&](IslandDevice& d) { d.upload(name, weight); });
}

sam3n_status sam3n_commit_weights(sam3n_handle handle) {
    return sam3n::on_device("commit_weights", handle, [&](IslandDevice& d) { d.commit(); });
}

sam3n_status sam3n_run_backbone(sam3n_handle handle, const sam3n_tensor* image, const sam3n_tensor* trunk_out) {
    return sam3n::on_device("run_backbone", handle, [&](IslandDevice& d) { d.run_backbone(image, trunk_out); });
}

sam3n_status sam3n_run_fusion_encoder(sam3n_handle handle, const sam3n_tensor* image_features,
                                      const sam3n_tensor* pos, const sam3n_tensor* prompt,
                                      const sam3n_tensor* prompt_mask, const sam3n_tensor* memory) {
    return sam3n::on_device("run_fusion_encoder", handle, [&](IslandDevice& d) {
        d.run_fusion_encoder(image_features, pos, prompt, prompt_mask, memory);
    });
}

sam3n_status sam3n_describe(sam3n_handle handle, const char** text) {
    return sam3n::on_device("describe", handle, [&](IslandDevice& d) {
        sam3n::require_out(text, "text");
        *text = d.describe().c_str();
    });
}

sam3n_status sam3n_encoder_trace_status(sam3n_handle handle, sam3n_encoder_trace* status) {
    return sam3n::on_device("encoder_trace_status", handle, [&](IslandDevice& d) {
        sam3n::require_out(status, "status");
        *status = d.encoder_trace();
    });
}

sam3n_status sam3n_close(sam3n_handle handle) {
    return sam3n::guarded("close", [&] {
        std::shared_ptr<IslandDevice> device = sam3n::registry().remove(handle);
        std::lock_guard<std::mutex> lock(device->mutex());
        device->close();
    });
}

}  // extern "C"
