package io.sam3stream.weights.procedural;

import io.sam3stream.weights.RawTensor;
import java.util.List;
import java.util.regex.Pattern;

/**
 * How wide the uniform distribution of a generated tensor is ({@code value = offset + v * scale}, v uniform on
 * [-1, 1)), chosen from the tensor's name and shape. Rules are tried in declaration order and the first match
 * wins (golden/sam3-full-procedural, section 1.3).
 */
enum ScaleRule {

    /** R1: the presence head's output bias, shifted so that the presence probability lands near the threshold. */
    PRESENCE_BIAS("R1", 0.02, 0.3),
    /** R2: LayerNorm and GroupNorm weights (the only 1-D weights), centred on 1. */
    NORM_WEIGHT("R2", 0.1, 1.0),
    /** R3: every bias, including MultiheadAttention's {@code in_proj_bias}. */
    BIAS("R3", 0.02, 0.0),
    /** R4: learned embeddings and position tables, uniform on [-1, 1). */
    EMBEDDING("R4", 1.0, 0.0),
    /** R5: every other weight, {@code gain * sqrt(3 / fan_in)} so that outputs keep roughly unit variance. */
    FAN_IN("R5", Double.NaN, 0.0);

    private static final String PRESENCE_BIAS_NAME = "transformer.decoder.presence_token_head.layers.2.bias";

    private static final List<String> EMBEDDING_SUFFIXES = List.of("pos_embed", "positional_embedding",
            "token_embedding.weight", "label_embed.weight", "cls_embed.weight", "query_embed.weight",
            "reference_points.weight", "presence_token.weight");

    /**
     * Decoder attention output projections. With the generic scale every query attends almost uniformly and the
     * post-norm layers erase the differences between queries; a gain of 0.1 keeps them apart.
     */
    private static final Pattern DECODER_ATTENTION_OUTPUT = Pattern.compile(
            "transformer\\.decoder\\.layers\\.[0-9]+\\.(self_attn|ca_text|cross_attn)\\.out_proj\\.weight");

    /** Keeps the refined boxes away from the image border. */
    private static final String BOX_HEAD_LAST_LAYER = "transformer.decoder.bbox_embed.layers.2.weight";

    /** Spreads the class scores so that the 0.5 threshold falls inside their distribution. */
    private static final String SCORING_QUERY_PROJECTION = "dot_prod_scoring.hs_proj.weight";

    /**
     * The neck's ConvTranspose2d weights are stored (in, out, kh, kw); with kernel = stride = 2 each output pixel
     * sums {@code in} terms, so their fan-in is the first dimension rather than the product of the others.
     */
    private static final String TRANSPOSED_CONVOLUTION_MARKER = "dconv_2x2";

    private final String id;
    private final double fixedScale;
    private final double offset;

    ScaleRule(String id, double fixedScale, double offset) {
        this.id = id;
        this.fixedScale = fixedScale;
        this.offset = offset;
    }

    /** The rule's label in the recipe ("R1" .. "R5"). */
    String id() {
        return id;
    }

    /** The centre {@code c} of the tensor's values. */
    double offset() {
        return offset;
    }

    /** The half-width {@code s} of the tensor's values. */
    double scale(String name, long[] shape) {
        if (this != FAN_IN) {
            return fixedScale;
        }
        return gain(name) * Math.sqrt(3.0 / (double) fanIn(name, shape));
    }

    /** The first rule that applies to a tensor. */
    static ScaleRule of(String name, long[] shape) {
        if (name.equals(PRESENCE_BIAS_NAME)) {
            return PRESENCE_BIAS;
        }
        if (shape.length == 1 && name.endsWith(".weight")) {
            return NORM_WEIGHT;
        }
        if (name.endsWith("bias")) {
            return BIAS;
        }
        if (EMBEDDING_SUFFIXES.stream().anyMatch(name::endsWith)) {
            return EMBEDDING;
        }
        return FAN_IN;
    }

    /** The multiplier of the generic fan-in scale; 1 for all but four kinds of tensor. */
    static double gain(String name) {
        if (DECODER_ATTENTION_OUTPUT.matcher(name).matches()) {
            return 0.1;
        }
        if (name.equals(BOX_HEAD_LAST_LAYER)) {
            return 0.5;
        }
        if (name.equals(SCORING_QUERY_PROJECTION)) {
            return 1.5;
        }
        return 1.0;
    }

    /** Number of input terms that each output of the layer sums. */
    static long fanIn(String name, long[] shape) {
        if (name.contains(TRANSPOSED_CONVOLUTION_MARKER)) {
            return shape[0];
        }
        return RawTensor.elementCount(shape) / shape[0];
    }
}
