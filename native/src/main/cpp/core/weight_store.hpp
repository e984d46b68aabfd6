// The islands' weights as uploaded: which names are required, their shapes, and the float copies kept
// until an implementation consumes them at commit.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "island_config.hpp"
#include "sam3native.h"

namespace sam3n {

/** One required weight: its canonical name and upstream shape. */
struct WeightSpec {
    std::string name;
    std::vector<int64_t> shape;
    /** A second accepted shape that put() normalises to `shape` (the position embedding without its cls
     *  row, as Hugging Face files store it); empty if none. */
    std::vector<int64_t> shape_without_cls;
};

/** A weight widened to float, C-order. */
struct HostWeight {
    std::vector<int64_t> shape;
    std::vector<float> values;
};

/** Every weight the two islands read, in upstream state-dict order. Trunk blocks after the last global
 *  block are not listed: upstream computes them but never returns their result. */
std::vector<WeightSpec> island_weight_specs(const IslandConfig& config);

class WeightStore {
public:
    explicit WeightStore(std::vector<WeightSpec> specs);

    const std::vector<WeightSpec>& specs() const { return specs_; }

    /** Validates name and shape, widens to float and keeps a copy. The position embedding is stored without
     *  its cls row, as (1, P*P, C). Throws SAM3N_INVALID_ARGUMENT. */
    void put(const std::string& name, const sam3n_tensor& tensor);

    /** Names of the required weights not uploaded yet, in spec order. */
    std::vector<std::string> missing() const;

    /** Hands over a stored weight, freeing the store's copy. */
    HostWeight take(const std::string& name);

private:
    const WeightSpec* spec(const std::string& name) const;

    std::vector<WeightSpec> specs_;
    std::map<std::string, HostWeight> stored_;
    std::set<std::string> taken_;
};

}  // namespace sam3n
