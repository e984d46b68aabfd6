package io.sam3stream.model.heads;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.types.DataType;
import io.sam3stream.model.config.Sam3Config;
import io.sam3stream.model.nn.ComputeOptions;
import io.sam3stream.model.nn.Conv2d;
import io.sam3stream.model.nn.GraphWeights;
import io.sam3stream.model.nn.LayerNorm;
import io.sam3stream.model.nn.Mlp;
import io.sam3stream.model.nn.MultiheadAttention;
import io.sam3stream.model.nn.Params;
import io.sam3stream.model.nn.Precision;
import io.sam3stream.model.nn.PromptGraphs;
import io.sam3stream.model.nn.Scopes;
import io.sam3stream.model.nn.StageSink;
import java.util.List;

/**
 * Upstream's {@code UniversalSegmentationHead} on the inference path (docs/MODEL.md §10): the encoder memory attends to
 * the prompt, replaces the 1× level of the backbone pyramid, and the {@link PixelDecoder} brings it to 4× with the
 * finer levels; a 1×1 conv gives per-pixel instance embeddings and each query's mask logits are the dot product of
 * its {@code mask_embed} with them. The finer levels enter as {@link #levelTerms}, computed once per image.
 */
public final class SegmentationHead {

    private final LayerNorm crossAttentionNorm;
    private final MultiheadAttention crossAttendPrompt;
    private final PixelDecoder pixelDecoder;
    private final Conv2d instanceSegHead;
    private final Conv2d semanticSegHead;
    private final Mlp maskEmbed;
    private final int grid;
    /** The same parameters for {@link PromptGraphs#segmentationHead}; null for {@link Precision#BF16_LINEAR} layers. */
    private final GraphWeights graph;

    private SegmentationHead(LayerNorm crossAttentionNorm, MultiheadAttention crossAttendPrompt,
            PixelDecoder pixelDecoder, Conv2d instanceSegHead, Conv2d semanticSegHead, Mlp maskEmbed, int grid,
            Params head) {
        this.crossAttentionNorm = crossAttentionNorm;
        this.crossAttendPrompt = crossAttendPrompt;
        this.pixelDecoder = pixelDecoder;
        this.instanceSegHead = instanceSegHead;
        this.semanticSegHead = semanticSegHead;
        this.maskEmbed = maskEmbed;
        this.grid = grid;
        this.graph = head.precision().singleFormat() ? graphWeights(head) : null;
    }

    private GraphWeights graphWeights(Params head) {
        GraphWeights.Builder graph = GraphWeights.builder();
        crossAttentionNorm.addTo(graph, "cross_attn_norm");
        crossAttendPrompt.addTo(graph, "cross_attend_prompt");
        pixelDecoder.addTo(graph, "pixel_decoder");
        instanceSegHead.addTo(graph, "instance_seg_head");
        semanticSegHead.addTo(graph, "semantic_seg_head");
        maskEmbed.addTo(graph, "mask_predictor.mask_embed");
        return graph.build(head.manager());
    }

    /**
     * Loads the {@code segmentation_head} subtree. The pixel decoder gets three levels, 4×, 2× and the 1× memory,
     * as upstream's backbone keeps three neck levels ({@code scalp=1}).
     */
    public static SegmentationHead load(Params head, Sam3Config config) {
        return load(head, head.sub("pixel_decoder"), config);
    }

    /**
     * As {@link #load(Params, Sam3Config)}, the pixel decoder from {@code pixelDecoder}: the same weights in a
     * precision of their own, for its convolutions.
     */
    public static SegmentationHead load(Params head, Params pixelDecoder, Sam3Config config) {
        return new SegmentationHead(LayerNorm.load(head, "cross_attn_norm"),
                MultiheadAttention.load(head, "cross_attend_prompt", config.maskHeadHeads()),
                PixelDecoder.load(pixelDecoder, 3),
                Conv2d.load(head, "instance_seg_head"), Conv2d.load(head, "semantic_seg_head"),
                Mlp.load(head, "mask_predictor.mask_embed", 3), config.grid(), head);
    }

    /**
     * The image's share of the pixel decoder ({@link PixelDecoder#levelTerms}), which every prompt on the image
     * reuses.
     *
     * @param finerLevels the backbone pyramid levels finer than G, finest first ((1, d, 4G, 4G) and (1, d, 2G, 2G)
     *                    in SAM3)
     * @return one term per level, same order and shapes; the caller closes them
     */
    public List<NDArray> levelTerms(List<NDArray> finerLevels) {
        return Scopes.keepAll(() -> new NDList(pixelDecoder.levelTerms(finerLevels)));
    }

    /**
     * Records {@code seg.prompt_attended_memory}, {@code seg.pixel_embed}, {@code seg.instance_embeds},
     * {@code seg.pred_masks} and, only for the sink since inference never reads it, {@code seg.semantic_seg}.
     *
     * @param memory      fused image memory (B, G·G, d), token index y·G + x
     * @param prompt      prompt tokens (B, S, d)
     * @param promptMask  prompt key-padding mask (B, S), true = padding
     * @param levelTerms  {@link #levelTerms} of the image's finer levels, finest first ((1 or B, d, 4G, 4G) and
     *                    (1 or B, d, 2G, 2G) in SAM3)
     * @param queries     the last decoder layer's normed queries (B, Q, d)
     * @return mask logits (B, Q, 4G, 4G)
     */
    public NDArray forward(NDArray memory, NDArray prompt, NDArray promptMask, List<NDArray> levelTerms,
            NDArray queries, StageSink sink) {
        if (graph != null && ComputeOptions.current().moduleGraphs()) {
            return forwardGraph(memory, prompt, promptMask, levelTerms, queries, sink);
        }
        return Scopes.keep(() -> {
            NDArray attended = memory.add(crossAttendPrompt.forward(crossAttentionNorm.forward(memory), prompt,
                    prompt, promptMask, null));
            NDArray pixelEmbed = pixelDecoder.forward(toFeatureMap(attended), levelTerms);
            if (sink.active()) {
                sink.record("seg.prompt_attended_memory", attended.transpose(1, 0, 2));
                sink.record("seg.pixel_embed", pixelEmbed);
                sink.record("seg.instance_embeds", instanceSegHead.forward(pixelEmbed));
                sink.record("seg.semantic_seg", semanticSegHead.forward(pixelEmbed));
            }
            NDArray masks = maskLogits(maskEmbed.forward(queries), pixelEmbed);
            sink.record("seg.pred_masks", masks);
            return masks;
        });
    }

    /**
     * Upstream's {@code einsum("bqc,bchw->bqhw", mask_embed, instance_seg_head(pixel_embed))} with the 1×1
     * instance head folded into the mask embeddings: E·(W·P + b) = (E·W)·P + E·b, the same sums reassociated. The
     * head's 256-channel convolution at 4G² pixels (a seventh of the segmentation head's time at full size) becomes
     * a product of Q rows.
     *
     * @param embed      (B, Q, C) the queries' mask embeddings
     * @param pixelEmbed (B, C, H, W) the pixel decoder's output
     */
    private NDArray maskLogits(NDArray embed, NDArray pixelEmbed) {
        long[] s = pixelEmbed.getShape().getShape();
        NDArray weight = instanceSegHead.weight().toType(DataType.FLOAT32, true).reshape(s[1], s[1]);
        NDArray bias = instanceSegHead.bias().toType(DataType.FLOAT32, true).reshape(s[1], 1);
        NDArray masks = embed.matMul(weight).matMul(pixelEmbed.reshape(s[0], s[1], s[2] * s[3]));
        return masks.addi(embed.matMul(bias)).reshape(s[0], -1, s[2], s[3]);
    }

    /** {@link #forward} as one call of the compiled graph. */
    private NDArray forwardGraph(NDArray memory, NDArray prompt, NDArray promptMask, List<NDArray> levelTerms,
            NDArray queries, StageSink sink) {
        checkTokens(memory);
        NDList out = PromptGraphs.segmentationHead(memory, prompt, promptMask, levelTerms, queries, graph,
                crossAttendPrompt.heads(), grid, sink.active());
        NDArray masks = out.get(0);
        if (sink.active()) {
            try (NDArray attended = out.get(1).transpose(1, 0, 2)) {
                sink.record("seg.prompt_attended_memory", attended);
            }
            sink.record("seg.pixel_embed", out.get(2));
            sink.record("seg.instance_embeds", out.get(3));
            sink.record("seg.semantic_seg", out.get(4));
            sink.record("seg.pred_masks", masks);
        }
        for (int i = 1; i < out.size(); i++) {
            out.get(i).close();
        }
        return masks;
    }

    /** (B, G·G, d) tokens, index y·G + x → (B, d, G, G). */
    private NDArray toFeatureMap(NDArray tokens) {
        checkTokens(tokens);
        long[] s = tokens.getShape().getShape();
        return tokens.transpose(0, 2, 1).reshape(s[0], s[2], grid, grid);
    }

    private void checkTokens(NDArray tokens) {
        long count = tokens.getShape().get(1);
        if (count != (long) grid * grid) {
            throw new IllegalArgumentException("memory has " + count + " tokens, expected " + grid + "×" + grid);
        }
    }
}
