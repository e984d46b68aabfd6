package io.sam3stream.model.text;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.types.Shape;
import io.sam3stream.model.config.TextConfig;
import io.sam3stream.model.nn.ComputeOptions;
import io.sam3stream.model.nn.GraphWeights;
import io.sam3stream.model.nn.Linear;
import io.sam3stream.model.nn.Params;
import io.sam3stream.model.nn.Precision;
import io.sam3stream.model.nn.PromptGraphs;
import io.sam3stream.model.nn.StageLayouts;
import io.sam3stream.model.nn.StageSink;

/**
 * SAM3's text encoder (upstream {@code VETextEncoder}, {@code sam3/model/text_encoder_ve.py}): the causal
 * {@link TextTransformer} followed by the {@code resizer} Linear from the text width to d_model, applied to every
 * token. Takes token ids; tokenizing is the caller's business.
 *
 * <p>Stages: {@code text.transformer_tokens} (B, L, width), {@code text.language_mask} (B, L),
 * {@code text.language_features} (L, B, d) and {@code text.language_embeds} (L, B, width), the last two
 * sequence-first as upstream returns them. The states and features are zero at padding positions: every module after
 * this one masks those positions out, so only the positions up to the last real token of the batch are computed
 * ({@link TextTransformer#computedPositions}), and the padding rows among them are zeroed so that a prompt's
 * features do not depend on the prompts batched with it. Upstream computes values there that nothing reads.
 */
public final class VETextEncoder {

    private final TextTransformer encoder;
    private final Linear resizer;
    /** The same parameters for {@link PromptGraphs#textEncoder}, in every precision. */
    private final GraphWeights graph;
    /** Whether the layers attend with bfloat16 operands ({@link Precision#bf16Attention}), for the graph. */
    private final boolean bf16Attention;

    private VETextEncoder(TextTransformer encoder, Linear resizer, Params backbone) {
        this.encoder = encoder;
        this.resizer = resizer;
        GraphWeights.Builder graph = GraphWeights.builder();
        encoder.addTo(graph, "encoder");
        resizer.addTo(graph, "resizer");
        this.graph = graph.build(backbone.manager());
        this.bf16Attention = backbone.precision().bf16Attention();
    }

    /** Loads {@code backbone.language_backbone.{encoder,resizer}} from the model root. */
    public static VETextEncoder load(Params root, TextConfig config) {
        Params backbone = root.sub("backbone.language_backbone");
        return new VETextEncoder(TextTransformer.load(backbone.sub("encoder"), config),
                Linear.load(backbone, "resizer"), backbone);
    }

    /**
     * Encodes a batch of tokenized prompts.
     *
     * @param ids  (B, contextLength) int64 token ids, 0 = padding
     * @param sink receives the {@code text.*} stages
     * @return the projected token features and the padding mask ({@code ids == 0}), in the manager of {@code ids}
     * @throws IllegalArgumentException if {@code ids} is not a (B, contextLength) int64 tensor
     */
    public TextEncoding encode(NDArray ids, StageSink sink) {
        NDArray tokens;
        NDArray features;
        if (ComputeOptions.current().moduleGraphs()) {
            encoder.requireIds(ids);
            NDList out = PromptGraphs.textEncoder(ids, TextTransformer.computedPositions(ids), graph,
                    encoder.layers(), encoder.heads(), bf16Attention);
            tokens = out.get(0);
            features = out.get(1);
        } else {
            tokens = encoder.forward(ids);
            features = resizer.forward(tokens);
        }
        NDArray mask = ids.eq(0);
        tokens = toContext(tokens, mask);
        features = toContext(features, mask);
        sink.record("text.transformer_tokens", tokens);
        sink.record("text.language_mask", mask);
        tokens.close();
        StageLayouts.recordSequenceFirst(sink, "text.language_features", features);
        if (sink.active()) {
            // the raw token embeddings are an upstream output that nothing downstream consumes
            try (NDArray embeds = encoder.embed(ids)) {
                StageLayouts.recordSequenceFirst(sink, "text.language_embeds", embeds);
            }
        }
        return new TextEncoding(features, mask);
    }

    /**
     * Widens the computed positions of (B, computed, C) states to the full context with zero rows, and zeroes the
     * padding rows within them too, so that a prompt's features are the same whatever it is batched with.
     * Closes {@code computedRows}.
     *
     * @param padding (B, contextLength) boolean, true at padding
     */
    private NDArray toContext(NDArray computedRows, NDArray padding) {
        long missing = encoder.contextLength() - computedRows.getShape().get(1);
        try (NDArray widened = computedRows.pad(new Shape(0, 0, 0, missing), 0);
                NDArray real = padding.logicalNot();
                NDArray weight = real.toType(computedRows.getDataType(), false);
                NDArray perRow = weight.expandDims(-1)) {
            computedRows.close();
            return widened.mul(perRow);
        }
    }

    /** Tokens per prompt (32 in SAM3). */
    public int contextLength() {
        return encoder.contextLength();
    }
}
