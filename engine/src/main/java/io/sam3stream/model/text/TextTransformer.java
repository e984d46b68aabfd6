package io.sam3stream.model.text;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.index.NDIndex;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.ndarray.types.SparseFormat;
import ai.djl.nn.core.Embedding;
import io.sam3stream.model.config.TextConfig;
import io.sam3stream.model.nn.GraphWeights;
import io.sam3stream.model.nn.LayerNorm;
import io.sam3stream.model.nn.Params;
import java.util.ArrayList;
import java.util.List;

/**
 * The CLIP-style causal text transformer (upstream {@code TextTransformer}, {@code sam3/model/text_encoder_ve.py}):
 * token embedding plus a learned positional embedding, pre-norm residual attention blocks under a causal mask, and
 * {@code ln_final}. Upstream's pooled {@code text_projection} output is discarded by SAM3, so it is not loaded.
 *
 * <p>There is no padding mask inside the transformer: padding ids (0) follow the end-of-text token and the causal
 * mask keeps every real token from seeing them.
 */
public final class TextTransformer {

    private final NDArray tokenEmbedding;
    private final NDArray positionalEmbedding;
    private final List<ResidualAttentionBlock> blocks;
    private final LayerNorm lnFinal;
    private final NDArray causality;
    private final int contextLength;

    private TextTransformer(NDArray tokenEmbedding, NDArray positionalEmbedding, List<ResidualAttentionBlock> blocks,
            LayerNorm lnFinal, int contextLength) {
        this.tokenEmbedding = tokenEmbedding;
        this.positionalEmbedding = positionalEmbedding;
        this.blocks = blocks;
        this.lnFinal = lnFinal;
        this.contextLength = contextLength;
        this.causality = causalBias(positionalEmbedding, contextLength);
    }

    /**
     * Loads the transformer from its subtree ({@code backbone.language_backbone.encoder}).
     *
     * @throws IllegalArgumentException if the positional embedding does not cover {@code config.contextLength()}
     */
    public static TextTransformer load(Params encoder, TextConfig config) {
        NDArray positional = encoder.get("positional_embedding");
        if (positional.getShape().get(0) != config.contextLength()) {
            throw new IllegalArgumentException("positional_embedding has " + positional.getShape().get(0)
                    + " rows but the context length is " + config.contextLength());
        }
        List<ResidualAttentionBlock> blocks = new ArrayList<>(config.layers());
        for (int i = 0; i < config.layers(); i++) {
            blocks.add(ResidualAttentionBlock.load(encoder.sub("transformer.resblocks." + i), config.heads()));
        }
        return new TextTransformer(encoder.get("token_embedding.weight"), positional, List.copyOf(blocks),
                LayerNorm.load(encoder, "ln_final"), config.contextLength());
    }

    /** (1, 1, L, L) additive mask: −∞ above the diagonal, so token i attends to tokens 0..i only. */
    private static NDArray causalBias(NDArray like, int length) {
        float[] values = new float[length * length];
        for (int i = 0; i < length; i++) {
            for (int j = i + 1; j < length; j++) {
                values[i * length + j] = Float.NEGATIVE_INFINITY;
            }
        }
        return like.getManager().create(values, new Shape(1, 1, length, length));
    }

    /**
     * The raw token embeddings, before the positional embedding (upstream's {@code inputs_embeds}), in the
     * manager of {@code ids}.
     *
     * @param ids (B, L) int64 token ids
     * @return (B, L, width)
     */
    public NDArray embed(NDArray ids) {
        return Embedding.embedding(ids, tokenEmbedding, SparseFormat.DENSE).singletonOrThrow();
    }

    /**
     * Encodes token ids to per-token states after {@code ln_final}, for the positions {@link #computedPositions}
     * names.
     *
     * @param ids (B, contextLength) int64 token ids, padded with 0 (upstream always tokenizes to the full context)
     * @return (B, computedPositions(ids), width)
     * @throws IllegalArgumentException if {@code ids} is not a (B, contextLength) int64 tensor
     */
    public NDArray forward(NDArray ids) {
        requireIds(ids);
        int computed = computedPositions(ids);
        NDArray x;
        try (NDArray head = ids.get(new NDIndex(":, :{}", computed));
                NDArray embedded = embed(head);
                NDArray positions = positionalEmbedding.get(new NDIndex(":{}", computed))) {
            x = embedded.add(positions);
        }
        try (NDArray causal = causality.get(new NDIndex(":, :, :{}, :{}", computed, computed))) {
            for (ResidualAttentionBlock block : blocks) {
                NDArray next = block.forward(x, causal);
                x.close();
                x = next;
            }
        }
        NDArray out = lnFinal.forward(x);
        x.close();
        return out;
    }

    /**
     * How many leading positions of a batch are computed: through the last non-padding id of any prompt, at least
     * one. The positions after it are padding in every prompt; the causal mask keeps them from every real token,
     * and every module after the text encoder masks them out, so their states would never be read.
     *
     * @param ids (B, contextLength) int64 token ids
     */
    public static int computedPositions(NDArray ids) {
        long[] values = ids.toLongArray();
        int context = Math.toIntExact(ids.getShape().get(1));
        int computed = 1;
        for (int i = 0; i < values.length; i++) {
            if (values[i] != 0) {
                computed = Math.max(computed, i % context + 1);
            }
        }
        return computed;
    }

    /** Checks that {@code ids} is a (B, contextLength) int64 tensor with B ≥ 1. */
    void requireIds(NDArray ids) {
        Shape shape = ids.getShape();
        if (shape.dimension() != 2 || shape.get(0) < 1 || shape.get(1) != contextLength
                || ids.getDataType() != DataType.INT64) {
            throw new IllegalArgumentException("token ids must be (B, " + contextLength + ") int64, got " + shape
                    + " " + ids.getDataType());
        }
    }

    /** Adds the transformer's parameters (and its causal mask) under {@code name} to a graph's. */
    void addTo(GraphWeights.Builder graph, String name) {
        graph.put(name + ".token_embedding.weight", tokenEmbedding);
        graph.put(name + ".positional_embedding", positionalEmbedding);
        graph.put(name + ".causal_bias", causality);
        for (int i = 0; i < blocks.size(); i++) {
            blocks.get(i).addTo(graph, name + ".transformer.resblocks." + i);
        }
        lnFinal.addTo(graph, name + ".ln_final");
    }

    int layers() {
        return blocks.size();
    }

    int heads() {
        return blocks.get(0).heads();
    }

    /** Tokens per prompt the positional embedding covers (32 in SAM3). */
    public int contextLength() {
        return contextLength;
    }
}
