package io.sam3stream.model.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/**
 * Reads a {@link Sam3Config} from a {@code config.json} whose sections are named after the upstream builder
 * functions ({@code "_create_vit_backbone (ViT)"}, ...), as in the golden folders.
 */
public final class Sam3ConfigReader {

    private Sam3ConfigReader() {}

    /** Reads the config file at {@code path}. */
    public static Sam3Config read(Path path) {
        try {
            return parse(new ObjectMapper().readTree(path.toFile()));
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("cannot read SAM3 config " + path + ": " + e.getMessage(), e);
        }
    }

    /** Builds the config from a parsed {@code config.json}. */
    public static Sam3Config parse(JsonNode root) {
        JsonNode vit = section(root, "_create_vit_backbone");
        JsonNode text = section(root, "_create_text_encoder");
        JsonNode encoder = section(root, "_create_transformer_encoder");
        JsonNode decoder = section(root, "_create_transformer_decoder");
        JsonNode scoring = section(root, "_create_dot_product_scoring");
        JsonNode seg = section(root, "_create_segmentation_head");
        JsonNode geometry = section(root, "_create_geometry_encoder");
        JsonNode neck = section(root, "_create_vit_neck");

        JsonNode globals = require(vit, "global_att_blocks");
        int[] globalBlocks = new int[globals.size()];
        for (int i = 0; i < globalBlocks.length; i++) {
            globalBlocks[i] = globals.get(i).asInt();
        }
        VitConfig vitConfig = new VitConfig(
                require(vit, "img_size").asInt(),
                require(vit, "pretrain_img_size").asInt(),
                require(vit, "patch_size").asInt(),
                require(vit, "embed_dim").asInt(),
                require(vit, "depth").asInt(),
                require(vit, "num_heads").asInt(),
                require(vit, "mlp_ratio").asDouble(),
                globalBlocks,
                require(vit, "window_size").asInt());

        int width = require(text, "width").asInt();
        double textMlpRatio = 4.0;
        JsonNode textDefaults = sectionOrNull(text, "TextTransformer defaults");
        if (textDefaults != null && textDefaults.has("mlp_ratio")) {
            textMlpRatio = textDefaults.get("mlp_ratio").asDouble();
        }
        TextConfig textConfig = new TextConfig(width,
                require(text, "heads").asInt(),
                require(text, "layers").asInt(),
                (int) (width * textMlpRatio),
                require(text, "context_length").asInt(),
                require(text, "vocab_size").asInt());

        TransformerConfig geometryConfig = new TransformerConfig(
                require(require(geometry, "encoder"), "num_layers").asInt(),
                require(require(geometry, "self_attention"), "num_heads").asInt(),
                require(require(geometry, "layer"), "dim_feedforward").asInt());
        TransformerConfig encoderConfig = new TransformerConfig(
                require(require(encoder, "encoder"), "num_layers").asInt(),
                require(require(encoder, "self_attention"), "num_heads").asInt(),
                require(require(encoder, "layer"), "dim_feedforward").asInt());
        TransformerConfig decoderConfig = new TransformerConfig(
                require(require(decoder, "decoder"), "num_layers").asInt(),
                require(require(decoder, "layer"), "n_heads").asInt(),
                require(require(decoder, "layer"), "dim_feedforward").asInt());
        int roiSize = 7;
        JsonNode geometryDefaults = sectionOrNull(geometry, "SequenceGeometryEncoder defaults");
        if (geometryDefaults != null && geometryDefaults.has("roi_size")) {
            roiSize = geometryDefaults.get("roi_size").asInt();
        }
        int resolution = vitConfig.imgSize();
        JsonNode processor = sectionOrNull(root, "processor");
        if (processor != null && processor.has("resolution")) {
            resolution = processor.get("resolution").asInt();
        }
        return new Sam3Config(resolution, vitConfig,
                require(neck, "d_model").asInt(),
                textConfig, geometryConfig, encoderConfig, decoderConfig,
                require(require(decoder, "decoder"), "num_queries").asInt(),
                require(require(scoring, "prompt_mlp"), "hidden_dim").asInt(),
                roiSize,
                require(require(seg, "cross_attend_prompt"), "num_heads").asInt());
    }

    private static JsonNode section(JsonNode node, String prefix) {
        JsonNode found = sectionOrNull(node, prefix);
        if (found == null) {
            throw new IllegalArgumentException("missing section " + prefix);
        }
        return found;
    }

    /** The first child whose key equals {@code prefix} or starts with it followed by a space. */
    private static JsonNode sectionOrNull(JsonNode node, String prefix) {
        for (Map.Entry<String, JsonNode> f : node.properties()) {
            if (f.getKey().equals(prefix) || f.getKey().startsWith(prefix + " ")) {
                return f.getValue();
            }
        }
        return null;
    }

    private static JsonNode require(JsonNode node, String key) {
        JsonNode v = node.get(key);
        if (v == null || v.isNull()) {
            throw new IllegalArgumentException("missing key " + key);
        }
        return v;
    }
}
