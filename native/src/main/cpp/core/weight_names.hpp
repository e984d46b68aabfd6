// Canonical (upstream state-dict, `detector.` stripped) names of the islands' weights.
#pragma once

#include <string>

namespace sam3n::names {

inline const std::string kTrunk = "backbone.vision_backbone.trunk.";
inline const std::string kEncoderLayers = "transformer.encoder.layers.";

inline std::string trunk(const std::string& leaf) { return kTrunk + leaf; }

inline std::string trunk_block(int block, const std::string& leaf) {
    return kTrunk + "blocks." + std::to_string(block) + "." + leaf;
}

inline std::string encoder_layer(int layer, const std::string& leaf) {
    return kEncoderLayers + std::to_string(layer) + "." + leaf;
}

}  // namespace sam3n::names
