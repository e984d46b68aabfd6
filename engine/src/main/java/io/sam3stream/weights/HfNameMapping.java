package io.sam3stream.weights;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Canonical names for the tensors of Hugging Face transformers' SAM3 checkpoint ({@code model.safetensors} of
 * {@code facebook/sam3}): the inverse of the rename table of transformers' {@code convert_sam3_to_hf.py}
 * (docs/MODEL.md §12.2), written as data in the {@code RULES} table.
 *
 * <p>Only {@code detector_model.*} tensors are mapped (the rest is the video tracker). Beyond renaming:
 * <ul>
 *   <li>the separate {@code q_proj}/{@code k_proj}/{@code v_proj} tensors are packed back into upstream's
 *       {@code in_proj_weight}/{@code in_proj_bias} (the ViT's {@code attn.qkv.*}), rows in q, k, v order;
 *   <li>{@code text_encoder.text_projection.weight}, stored (out, in) as a Linear weight, is transposed back to
 *       upstream's (in, out) {@code text_projection} matrix;
 *   <li>the ViT position embedding keeps the 576 rows HF stores: HF drops upstream's leading cls row, which the
 *       model discards anyway, so the model accepts a {@code pos_embed} of 576 or 577 rows;
 *   <li>{@code geometry_encoder.points_*} do not exist (HF has no point-prompt modules).
 * </ul>
 * Detector tensors that no rule knows are left out with a warning, so that an unexpected extra buffer in a newer
 * file does not stop loading; a tensor the model needs and lacks is reported when the model asks for it.
 */
final class HfNameMapping {

    private static final Logger LOG = LoggerFactory.getLogger(HfNameMapping.class);

    /** The prefix of the image model's tensors in the HF file. */
    static final String PREFIX = "detector_model.";

    private enum Part { WHOLE, TRANSPOSED, Q, K, V }

    /** A canonical name and the part of it a stored tensor supplies. */
    private record Target(String name, Part part) {}

    /** Maps the name of a tensor below a renamed module onto its canonical name, or null if unknown. */
    @FunctionalInterface
    private interface Children {
        Target map(String canonicalModule, String child);
    }

    /** One row of the table: an HF name (relative to {@link #PREFIX}) it recognises, or null. */
    @FunctionalInterface
    private interface Rule {
        Target apply(String hfName);
    }

    /** Tensor names below the module are unchanged. */
    private static final Children KEEP = (module, child) -> new Target(module + "." + child, Part.WHOLE);

    /** One-based numbers that fit an int; any other "layer..." child has no canonical name. */
    private static final Pattern NUMBERED_LAYER = Pattern.compile("layer([1-9]\\d{0,8})\\.(.+)");

    /** HF's MLP heads name their layers {@code layer1, layer2, ...}; upstream's MLP keeps {@code layers.0, ...}. */
    private static final Children ONE_BASED_LAYERS = (module, child) -> {
        Matcher m = NUMBERED_LAYER.matcher(child);
        return m.matches()
                ? new Target(module + ".layers." + (Integer.parseInt(m.group(1)) - 1) + "." + m.group(2), Part.WHOLE)
                : null;
    };

    private static final Pattern PROJECTION = Pattern.compile("([qkv])_proj\\.(weight|bias)");

    /** {@code nn.MultiheadAttention}: packed {@code in_proj_*}; HF names the output projection {@code o_proj}. */
    private static final Children ATTENTION = attention("in_proj_", "o_proj", "out_proj");
    /** The CLIP text encoder's attention: HF keeps CLIP's name {@code out_proj}. */
    private static final Children CLIP_ATTENTION = attention("in_proj_", "out_proj", "out_proj");
    /** The ViT's attention: packed {@code qkv.*} and output {@code proj}. */
    private static final Children VIT_ATTENTION = attention("qkv.", "o_proj", "proj");

    private static final String VIT = "backbone.vision_backbone.trunk.";
    private static final String NECK = "backbone.vision_backbone.convs.";
    private static final String TEXT = "backbone.language_backbone.encoder.";
    private static final String TEXT_LAYER = TEXT + "transformer.resblocks.$1.";
    private static final String GEOMETRY = "geometry_encoder.";
    private static final String ENCODER_LAYER = "transformer.encoder.layers.$1.";
    private static final String DECODER = "transformer.decoder.";
    private static final String SCORING = "dot_prod_scoring.";
    private static final String SEG_HEAD = "segmentation_head.";

    /**
     * HF name → canonical name, first match wins. In module rules a {@code .} of the HF side is literal, groups
     * are referenced as {@code $n} on the canonical side, and the rest of the name is mapped by the
     * {@link Children} rule.
     */
    private static final List<Rule> RULES = List.of(
            // ViT trunk
            tensor("vision_encoder.backbone.embeddings.position_embeddings", VIT + "pos_embed", Part.WHOLE),
            module("vision_encoder.backbone.embeddings.patch_embeddings.projection", VIT + "patch_embed.proj", KEEP),
            module("vision_encoder.backbone.layer_norm", VIT + "ln_pre", KEEP),
            module("vision_encoder.backbone.layers.(\\d+).layer_norm(\\d)", VIT + "blocks.$1.norm$2", KEEP),
            module("vision_encoder.backbone.layers.(\\d+).attention", VIT + "blocks.$1.attn", VIT_ATTENTION),
            module("vision_encoder.backbone.layers.(\\d+).mlp", VIT + "blocks.$1.mlp", KEEP),
            // Neck. Scale layer 0 is dconv_2x2_0 at the 4x level and dconv_2x2 at the 2x level: see repairNeck.
            module("vision_encoder.neck.fpn_layers.(\\d+).scale_layers.0", NECK + "$1.dconv_2x2_0", KEEP),
            module("vision_encoder.neck.fpn_layers.(\\d+).scale_layers.2", NECK + "$1.dconv_2x2_1", KEEP),
            module("vision_encoder.neck.fpn_layers.(\\d+).proj1", NECK + "$1.conv_1x1", KEEP),
            module("vision_encoder.neck.fpn_layers.(\\d+).proj2", NECK + "$1.conv_3x3", KEEP),
            // Text encoder (CLIP naming in HF) and the resizer, which HF calls text_projection
            module("text_encoder.text_model.embeddings.token_embedding", TEXT + "token_embedding", KEEP),
            tensor("text_encoder.text_model.embeddings.position_embedding.weight", TEXT + "positional_embedding",
                    Part.WHOLE),
            module("text_encoder.text_model.final_layer_norm", TEXT + "ln_final", KEEP),
            module("text_encoder.text_model.encoder.layers.(\\d+).self_attn", TEXT_LAYER + "attn", CLIP_ATTENTION),
            module("text_encoder.text_model.encoder.layers.(\\d+).layer_norm(\\d)", TEXT_LAYER + "ln_$2", KEEP),
            module("text_encoder.text_model.encoder.layers.(\\d+).mlp.fc1", TEXT_LAYER + "mlp.c_fc", KEEP),
            module("text_encoder.text_model.encoder.layers.(\\d+).mlp.fc2", TEXT_LAYER + "mlp.c_proj", KEEP),
            tensor("text_encoder.text_projection.weight", TEXT + "text_projection", Part.TRANSPOSED),
            module("text_projection", "backbone.language_backbone.resizer", KEEP),
            // Geometry encoder
            module("geometry_encoder.layers.(\\d+).self_attn", GEOMETRY + "encode.$1.self_attn", ATTENTION),
            module("geometry_encoder.layers.(\\d+).cross_attn", GEOMETRY + "encode.$1.cross_attn_image", ATTENTION),
            module("geometry_encoder.layers.(\\d+).mlp.fc(\\d)", GEOMETRY + "encode.$1.linear$2", KEEP),
            module("geometry_encoder.layers.(\\d+).layer_norm(\\d)", GEOMETRY + "encode.$1.norm$2", KEEP),
            module("geometry_encoder.vision_layer_norm", GEOMETRY + "img_pre_norm", KEEP),
            module("geometry_encoder.prompt_layer_norm", GEOMETRY + "norm", KEEP),
            module("geometry_encoder.output_layer_norm", GEOMETRY + "encode_norm", KEEP),
            module("geometry_encoder.(cls_embed|label_embed|boxes_direct_project|boxes_pool_project"
                    + "|boxes_pos_enc_project|final_proj)", GEOMETRY + "$1", KEEP),
            // Fusion encoder
            module("detr_encoder.layers.(\\d+).self_attn", ENCODER_LAYER + "self_attn", ATTENTION),
            module("detr_encoder.layers.(\\d+).cross_attn", ENCODER_LAYER + "cross_attn_image", ATTENTION),
            module("detr_encoder.layers.(\\d+).mlp.fc(\\d)", ENCODER_LAYER + "linear$2", KEEP),
            module("detr_encoder.layers.(\\d+).layer_norm(\\d)", ENCODER_LAYER + "norm$2", KEEP),
            // Decoder
            module("detr_decoder.layers.(\\d+).self_attn", DECODER + "layers.$1.self_attn", ATTENTION),
            module("detr_decoder.layers.(\\d+).text_cross_attn", DECODER + "layers.$1.ca_text", ATTENTION),
            module("detr_decoder.layers.(\\d+).vision_cross_attn", DECODER + "layers.$1.cross_attn", ATTENTION),
            module("detr_decoder.layers.(\\d+).self_attn_layer_norm", DECODER + "layers.$1.norm2", KEEP),
            module("detr_decoder.layers.(\\d+).text_cross_attn_layer_norm", DECODER + "layers.$1.catext_norm", KEEP),
            module("detr_decoder.layers.(\\d+).vision_cross_attn_layer_norm", DECODER + "layers.$1.norm1", KEEP),
            module("detr_decoder.layers.(\\d+).mlp_layer_norm", DECODER + "layers.$1.norm3", KEEP),
            module("detr_decoder.layers.(\\d+).mlp.fc(\\d)", DECODER + "layers.$1.linear$2", KEEP),
            module("detr_decoder.output_layer_norm", DECODER + "norm", KEEP),
            module("detr_decoder.box_head", DECODER + "bbox_embed", ONE_BASED_LAYERS),
            module("detr_decoder.presence_head", DECODER + "presence_token_head", ONE_BASED_LAYERS),
            module("detr_decoder.presence_layer_norm", DECODER + "presence_token_out_norm", KEEP),
            module("detr_decoder.box_rpb_embed_(x|y)", DECODER + "boxRPB_embed_$1", ONE_BASED_LAYERS),
            module("detr_decoder.ref_point_head", DECODER + "ref_point_head", ONE_BASED_LAYERS),
            module("detr_decoder.(query_embed|reference_points|presence_token)", DECODER + "$1", KEEP),
            // Dot-product scoring
            module("dot_product_scoring.text_mlp", SCORING + "prompt_mlp", ONE_BASED_LAYERS),
            module("dot_product_scoring.text_mlp_out_norm", SCORING + "prompt_mlp.out_norm", KEEP),
            module("dot_product_scoring.text_proj", SCORING + "prompt_proj", KEEP),
            module("dot_product_scoring.query_proj", SCORING + "hs_proj", KEEP),
            // Segmentation head
            module("mask_decoder.pixel_decoder", SEG_HEAD + "pixel_decoder", KEEP),
            module("mask_decoder.mask_embedder", SEG_HEAD + "mask_predictor.mask_embed", KEEP),
            module("mask_decoder.instance_projection", SEG_HEAD + "instance_seg_head", KEEP),
            module("mask_decoder.semantic_projection", SEG_HEAD + "semantic_seg_head", KEEP),
            module("mask_decoder.prompt_cross_attn", SEG_HEAD + "cross_attend_prompt", ATTENTION),
            module("mask_decoder.prompt_cross_attn_norm", SEG_HEAD + "cross_attn_norm", KEEP));

    /** A neck level's first upsampling layer, named as if the level had two (see {@link #repairNeck}). */
    private static final Pattern FIRST_UPSAMPLER =
            Pattern.compile(Pattern.quote(NECK) + "(\\d+)\\.dconv_2x2_0\\.(.+)");

    private HfNameMapping() {}

    /**
     * Recipes for the canonical tensors of an HF checkpoint.
     *
     * @param storedNames every tensor name in the file
     * @throws CheckpointException if a q/k/v triple is incomplete or two names map to one canonical name
     */
    static Map<String, TensorRecipe> recipes(Iterable<String> storedNames) {
        Map<String, TensorRecipe> recipes = new TreeMap<>();
        Map<String, String[]> projections = new TreeMap<>();
        List<String> unknown = new ArrayList<>();
        for (String stored : storedNames) {
            if (!stored.startsWith(PREFIX)) {
                continue;
            }
            Target target = canonical(stored.substring(PREFIX.length()));
            if (target == null) {
                unknown.add(stored);
                continue;
            }
            switch (target.part()) {
                case WHOLE -> add(recipes, target.name(), new TensorRecipe.Stored(stored));
                case TRANSPOSED -> add(recipes, target.name(), new TensorRecipe.Transposed(stored));
                case Q, K, V -> projections.computeIfAbsent(target.name(), k -> new String[3])
                        [target.part().ordinal() - Part.Q.ordinal()] = stored;
            }
        }
        projections.forEach((name, qkv) -> {
            if (Arrays.asList(qkv).contains(null)) {
                throw new CheckpointException("incomplete q/k/v projections for " + name + ": "
                        + Arrays.toString(qkv));
            }
            add(recipes, name, new TensorRecipe.RowsConcatenated(List.of(qkv)));
        });
        if (!unknown.isEmpty()) {
            LOG.warn("ignoring {} detector tensors with no canonical name, e.g. {}", unknown.size(),
                    unknown.subList(0, Math.min(5, unknown.size())));
        }
        return repairNeck(recipes);
    }

    private static Target canonical(String hfName) {
        for (Rule rule : RULES) {
            Target target = rule.apply(hfName);
            if (target != null) {
                return target;
            }
        }
        return null;
    }

    private static void add(Map<String, TensorRecipe> recipes, String name, TensorRecipe recipe) {
        TensorRecipe previous = recipes.putIfAbsent(name, recipe);
        if (previous != null) {
            throw new CheckpointException("both " + previous + " and " + recipe + " map to " + name);
        }
    }

    /**
     * HF names the first upsampling layer of every neck level {@code scale_layers.0}. Upstream calls it
     * {@code dconv_2x2_0} where a second one ({@code dconv_2x2_1}) follows (the 4× level) and {@code dconv_2x2}
     * where it is alone (the 2× level).
     */
    private static Map<String, TensorRecipe> repairNeck(Map<String, TensorRecipe> recipes) {
        Map<String, TensorRecipe> repaired = new TreeMap<>();
        recipes.forEach((name, recipe) -> {
            Matcher m = FIRST_UPSAMPLER.matcher(name);
            boolean alone = m.matches() && recipes.keySet().stream()
                    .noneMatch(n -> n.startsWith(NECK + m.group(1) + ".dconv_2x2_1."));
            repaired.put(alone ? NECK + m.group(1) + ".dconv_2x2." + m.group(2) : name, recipe);
        });
        return repaired;
    }

    private static Rule tensor(String hfName, String canonicalName, Part part) {
        Target target = new Target(canonicalName, part);
        return name -> name.equals(hfName) ? target : null;
    }

    private static Rule module(String hfModule, String canonicalModule, Children children) {
        Pattern pattern = Pattern.compile(hfModule.replace(".", "\\.") + "\\.(.+)");
        return name -> {
            Matcher m = pattern.matcher(name);
            if (!m.matches()) {
                return null;
            }
            String child = m.group(m.groupCount());
            StringBuilder module = new StringBuilder();
            m.appendReplacement(module, canonicalModule); // the match is the whole name: expands the $n only
            return children.map(module.toString(), child);
        };
    }

    private static Children attention(String packedPrefix, String hfOutput, String canonicalOutput) {
        return (module, child) -> {
            Matcher m = PROJECTION.matcher(child);
            if (m.matches()) {
                return new Target(module + "." + packedPrefix + m.group(2), Part.valueOf(m.group(1).toUpperCase()));
            }
            return child.startsWith(hfOutput + ".")
                    ? new Target(module + "." + canonicalOutput + child.substring(hfOutput.length()), Part.WHOLE)
                    : null;
        };
    }
}
