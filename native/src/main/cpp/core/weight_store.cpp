#include "weight_store.hpp"

#include <algorithm>

#include "error.hpp"
#include "tensor_arg.hpp"
#include "weight_names.hpp"

namespace sam3n {

namespace {

void add_layer_norm(std::vector<WeightSpec>& specs, const std::string& prefix, int64_t width) {
    specs.push_back({prefix + "weight", {width}, {}});
    specs.push_back({prefix + "bias", {width}, {}});
}

void add_linear(std::vector<WeightSpec>& specs, const std::string& prefix, int64_t out, int64_t in) {
    specs.push_back({prefix + "weight", {out, in}, {}});
    specs.push_back({prefix + "bias", {out}, {}});
}

// nn.MultiheadAttention: packed in_proj rows [q | k | v], then out_proj.
void add_multihead_attention(std::vector<WeightSpec>& specs, const std::string& prefix, int64_t d) {
    specs.push_back({prefix + "in_proj_weight", {3 * d, d}, {}});
    specs.push_back({prefix + "in_proj_bias", {3 * d}, {}});
    add_linear(specs, prefix + "out_proj.", d, d);
}

}  // namespace

std::vector<WeightSpec> island_weight_specs(const IslandConfig& config) {
    const VitConfig& v = config.vit;
    const int64_t c = v.embed_dim;
    const int64_t p = v.pretrain_grid();
    std::vector<WeightSpec> specs;
    specs.push_back({names::trunk("pos_embed"), {1, p * p + 1, c}, {1, p * p, c}});
    specs.push_back({names::trunk("patch_embed.proj.weight"), {c, 3, v.patch_size, v.patch_size}, {}});
    add_layer_norm(specs, names::trunk("ln_pre."), c);
    for (int b = 0; b <= v.last_global_block(); ++b) {
        add_layer_norm(specs, names::trunk_block(b, "norm1."), c);
        add_linear(specs, names::trunk_block(b, "attn.qkv."), 3 * c, c);
        add_linear(specs, names::trunk_block(b, "attn.proj."), c, c);
        add_layer_norm(specs, names::trunk_block(b, "norm2."), c);
        add_linear(specs, names::trunk_block(b, "mlp.fc1."), v.mlp_hidden, c);
        add_linear(specs, names::trunk_block(b, "mlp.fc2."), c, v.mlp_hidden);
    }
    const EncoderConfig& e = config.encoder;
    for (int l = 0; l < e.num_layers; ++l) {
        add_multihead_attention(specs, names::encoder_layer(l, "self_attn."), e.d_model);
        add_multihead_attention(specs, names::encoder_layer(l, "cross_attn_image."), e.d_model);
        add_linear(specs, names::encoder_layer(l, "linear1."), e.dim_feedforward, e.d_model);
        add_linear(specs, names::encoder_layer(l, "linear2."), e.d_model, e.dim_feedforward);
        add_layer_norm(specs, names::encoder_layer(l, "norm1."), e.d_model);
        add_layer_norm(specs, names::encoder_layer(l, "norm2."), e.d_model);
        add_layer_norm(specs, names::encoder_layer(l, "norm3."), e.d_model);
    }
    return specs;
}

WeightStore::WeightStore(std::vector<WeightSpec> specs) : specs_(std::move(specs)) {}

const WeightSpec* WeightStore::spec(const std::string& name) const {
    auto it = std::find_if(specs_.begin(), specs_.end(), [&](const WeightSpec& s) { return s.name == name; });
    return it == specs_.end() ? nullptr : &*it;
}

void WeightStore::put(const std::string& name, const sam3n_tensor& tensor) {
    const WeightSpec* s = spec(name);
    require_argument(s != nullptr, "'" + name + "' is not a weight of the backbone or fusion encoder islands");
    require_argument(stored_.count(name) == 0 && taken_.count(name) == 0, "'" + name + "' was uploaded already");
    check_tensor(name.c_str(), &tensor);
    std::vector<int64_t> shape = shape_of(tensor);
    bool without_cls = !s->shape_without_cls.empty() && shape == s->shape_without_cls;
    require_argument(shape == s->shape || without_cls,
                     "'" + name + "': expected shape " + shape_string(s->shape) +
                         (s->shape_without_cls.empty() ? "" : " or " + shape_string(s->shape_without_cls)) +
                         ", got " + shape_string(shape));
    HostWeight w{shape, to_floats(name.c_str(), tensor)};
    if (!s->shape_without_cls.empty() && !without_cls) {
        // Upstream get_abs_pos drops the cls position: row 0 of the (1, 1 + P*P, C) table.
        const auto width = static_cast<std::size_t>(s->shape.back());
        w.values.erase(w.values.begin(), w.values.begin() + static_cast<std::ptrdiff_t>(width));
        w.shape = s->shape_without_cls;
    }
    stored_.emplace(name, std::move(w));
}

std::vector<std::string> WeightStore::missing() const {
    std::vector<std::string> out;
    for (const WeightSpec& s : specs_) {
        if (stored_.count(s.name) == 0 && taken_.count(s.name) == 0) {
            out.push_back(s.name);
        }
    }
    return out;
}

HostWeight WeightStore::take(const std::string& name) {
    auto it = stored_.find(name);
    if (it == stored_.end()) {
        fail(SAM3N_INTERNAL, "weight '" + name + "' is not in the store");
    }
    HostWeight w = std::move(it->second);
    stored_.erase(it);
    taken_.insert(name);
    return w;
}

}  // namespace sam3n
