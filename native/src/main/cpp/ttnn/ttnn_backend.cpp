// The ttnn implementation of the islands: the ViT trunk and the fusion encoder on a Blackhole p150a.
// Written against the pinned tt-metal commit (native/cmake/tt-metal-pin.txt); compiled here only against the stand-in
// headers of native/src/test/ttnn-stand-in, never run here.
#include <memory>
#include <string>
#include <thread>

#include "../core/error.hpp"
#include "../core/island_backend.hpp"
#include "tt_context.hpp"
#include "tt_fusion_encoder.hpp"
#include "tt_vit_trunk.hpp"

namespace sam3n {

namespace {

using tenstorrent::TtContext;
using tenstorrent::TtFusionEncoder;
using tenstorrent::TtVitTrunk;

// Every dimension the graphs tile must be a whole number of 32 x 32 tiles.
void require_tiles(int64_t value, const char* what) {
    require_argument(value % 32 == 0,
                     std::string("ttnn: ") + what + " " + std::to_string(value) + " is not a multiple of 32");
}

void require_tileable(const IslandConfig& c) {
    require_tiles(c.vit.embed_dim, "vit embed_dim");
    require_tiles(c.vit.head_dim(), "vit head dim");
    require_tiles(c.vit.mlp_hidden, "vit mlp_hidden");
    require_tiles(c.vit.window_tokens(), "vit window tokens");
    require_tiles(c.encoder.d_model, "encoder d_model");
    require_tiles(c.encoder.head_dim(), "encoder head dim");
    require_tiles(c.encoder.dim_feedforward, "encoder dim_feedforward");
}

/** tt-metal reports failures as exceptions (TT_THROW / TT_FATAL); they become SAM3N_DEVICE_ERROR. */
template <typename Body>
auto on_card(const char* what, Body&& body) -> decltype(body()) {
    try {
        return body();
    } catch (const Error&) {
        throw;
    } catch (const std::bad_alloc&) {
        throw;
    } catch (const std::exception& e) {
        fail(SAM3N_DEVICE_ERROR, std::string(what) + ": " + e.what());
    }
}

class TtnnBackend final : public IslandBackend {
public:
    TtnnBackend(const OpenOptions& options, const IslandConfig& config)
        : options_(options), config_(config), owner_(std::this_thread::get_id()) {
        require_tileable(config);
        context_ = on_card("opening the device", [&] { return std::make_unique<TtContext>(options); });
    }

    ~TtnnBackend() override {
        // Traces and tensors go before the device closes.
        encoder_.reset();
        trunk_.reset();
        context_.reset();
    }

    void prepare(WeightStore& weights) override {
        require_owner();
        const bool traced = options_.trace_region_size > 0;
        on_card("uploading the weights", [&] {
            trunk_ = std::make_unique<TtVitTrunk>(*context_, config_.vit, weights, options_.fused, traced);
            encoder_ = std::make_unique<TtFusionEncoder>(*context_, config_.encoder, weights, options_.fused, traced);
        });
    }

    void run_backbone(const float* image, float* trunk_out) override {
        require_owner();
        on_card("backbone", [&] { trunk_->run(image, trunk_out); });
    }

    void run_fusion_encoder(const EncoderBatch& batch, float* memory) override {
        require_owner();
        on_card("fusion encoder", [&] { encoder_->run(batch, memory); });
    }

    std::string describe() const override {
        const auto grid = context_->grid();
        std::string text = "p150 device " + std::to_string(context_->device_id()) + ", " + std::to_string(grid.x) +
                           "x" + std::to_string(grid.y) + " cores, bfloat8_b weights, " +
                           (options_.fused ? "fused" : "legacy") + " paths";
        if (trunk_) {
            text += ", backbone trace captured: " + std::string(trunk_->trace_captured() ? "yes" : "no");
            text += ", encoder trace captured: " + std::string(encoder_->traces_captured() > 0 ? "yes" : "no");
        }
        return text;
    }

    sam3n_encoder_trace encoder_trace() const override {
        // the fused paths are validated with the encoder as a trace: without a trace region that cannot hold
        const bool expected = options_.fused;
        if (!encoder_) {
            return {expected ? 1 : 0, 0, 0, 0};
        }
        return {expected ? 1 : 0, encoder_->traces_captured() > 0 ? 1 : 0, encoder_->traced_runs(),
                encoder_->eager_runs()};
    }

private:
    // ttnn resolves command queues per thread and two dispatching threads race: one thread owns the card.
    void require_owner() const {
        if (std::this_thread::get_id() != owner_) {
            fail(SAM3N_INVALID_STATE, "ttnn: calls must come from the thread that opened the device");
        }
    }

    OpenOptions options_;
    IslandConfig config_;
    std::thread::id owner_;
    std::unique_ptr<TtContext> context_;
    std::unique_ptr<TtVitTrunk> trunk_;
    std::unique_ptr<TtFusionEncoder> encoder_;
};

}  // namespace

std::unique_ptr<IslandBackend> make_island_backend(const OpenOptions& options, const IslandConfig& config) {
    return std::make_unique<TtnnBackend>(options, config);
}

const char* implementation_name() { return "ttnn"; }

}  // namespace sam3n
