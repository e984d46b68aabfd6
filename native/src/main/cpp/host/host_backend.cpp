// The host implementation of the islands: fp32 on the CPU's threads.
#include <memory>
#include <string>

#include "../core/island_backend.hpp"
#include "cpu_kernels.hpp"
#include "fusion_encoder.hpp"
#include "thread_pool.hpp"
#include "vit_trunk.hpp"

namespace sam3n {

namespace {

class HostBackend final : public IslandBackend {
public:
    HostBackend(const OpenOptions& options, const IslandConfig& config)
        : config_(config), kernels_(host::cpu_kernels()), pool_(options.num_threads) {}

    void prepare(WeightStore& weights) override {
        trunk_ = std::make_unique<host::VitTrunk>(config_.vit, weights, kernels_);
        encoder_ = std::make_unique<host::FusionEncoder>(config_.encoder, weights, kernels_);
    }

    void run_backbone(const float* image, float* trunk_out) override { trunk_->run(image, trunk_out, pool_); }

    void run_fusion_encoder(const EncoderBatch& batch, float* memory) override {
        encoder_->run(batch, memory, pool_);
        ++encoder_runs_;
    }

    std::string describe() const override {
        return "fp32 on " + std::to_string(pool_.size()) + " threads, " + kernels_.name + " kernels";
    }

    // The host implementation has no traces: every run is op by op, and nothing expects otherwise.
    sam3n_encoder_trace encoder_trace() const override { return {0, 0, 0, encoder_runs_}; }

private:
    IslandConfig config_;
    const host::CpuKernels& kernels_;
    host::ThreadPool pool_;
    std::unique_ptr<host::VitTrunk> trunk_;
    std::unique_ptr<host::FusionEncoder> encoder_;
    int64_t encoder_runs_ = 0;
};

}  // namespace

std::unique_ptr<IslandBackend> make_island_backend(const OpenOptions& options, const IslandConfig& config) {
    return std::make_unique<HostBackend>(options, config);
}

const char* implementation_name() { return "host"; }

}  // namespace sam3n
