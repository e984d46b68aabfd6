package io.sam3stream.model.fusion;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import io.sam3stream.model.config.TransformerConfig;
import io.sam3stream.model.neck.ImageMemo;
import io.sam3stream.model.nn.ComputeOptions;
import io.sam3stream.model.nn.GraphWeights;
import io.sam3stream.model.nn.NativeBf16Attention;
import io.sam3stream.model.nn.Params;
import io.sam3stream.model.nn.Precision;
import io.sam3stream.model.nn.PromptGraphs;
import io.sam3stream.model.nn.StageLayouts;
import io.sam3stream.model.nn.StageSink;
import java.util.ArrayList;
import java.util.List;

/**
 * The image–prompt fusion encoder (upstream {@code TransformerEncoderFusion}, {@code sam3/model/encoder.py}) with
 * SAM3's settings: one feature level (no level embedding), no pooled-text addition, no final norm. Each
 * {@link TransformerEncoderLayer} lets the image tokens attend to themselves with their sine positions on queries
 * and keys, then to the prompt (no positions, prompt padding masked). The prompt itself is not updated.
 *
 * <p>Several prompts of one image run as one batch: the image tokens (batch 1) broadcast against the prompts
 * (batch B), so the first self-attention is computed once and the memory becomes per-prompt from the first
 * cross-attention on. That first self-attention depends on the image alone, so it is computed once per image and
 * kept in the image's {@link ImageMemo} for the later prompts on it.
 *
 * <p>Stages: {@code encoder.memory} and {@code encoder.pos_embed}, both (H·W, B, d) sequence-first.
 */
public final class TransformerEncoderFusion implements FusionEncoder {

    /**
     * The memo entry of the first layer's self-attention, per path: the graph's and the operator-by-operator
     * result differ in float rounding, and each path is tested against the other.
     */
    private static final String FIRST_SELF_ATTENTION = "fusion_encoder.first_self_attention";

    private final List<TransformerEncoderLayer> layers;
    private final int heads;
    /** The same parameters for {@link PromptGraphs#fusionEncoder}, in every precision. */
    private final GraphWeights graph;
    /**
     * The parameters' precision: the graph's attention format ({@link Precision#bf16Attention}), and whether the
     * self-attention runs in {@link NativeBf16Attention}.
     */
    private final Precision precision;

    private TransformerEncoderFusion(List<TransformerEncoderLayer> layers, int heads, Params encoder) {
        this.layers = layers;
        this.heads = heads;
        GraphWeights.Builder graph = GraphWeights.builder();
        for (int i = 0; i < layers.size(); i++) {
            layers.get(i).addTo(graph, "layers." + i);
        }
        this.graph = graph.build(encoder.manager());
        this.precision = encoder.precision();
    }

    /**
     * Loads {@code transformer.encoder.layers.*} from the model root.
     *
     * @throws IllegalArgumentException if the config has no layers
     */
    public static TransformerEncoderFusion load(Params root, TransformerConfig config) {
        if (config.layers() < 1) {
            throw new IllegalArgumentException("the fusion encoder needs at least one layer");
        }
        Params encoder = root.sub("transformer.encoder");
        List<TransformerEncoderLayer> layers = new ArrayList<>(config.layers());
        for (int i = 0; i < config.layers(); i++) {
            layers.add(TransformerEncoderLayer.load(encoder.sub("layers." + i), config.heads()));
        }
        return new TransformerEncoderFusion(List.copyOf(layers), config.heads(), encoder);
    }

    /**
     * Fuses one image level with a batch of prompts. The first layer's self-attention depends on the image alone:
     * it is taken from {@code memo} when an earlier prompt on the same image computed it.
     *
     * @param image      the 1× level (batch 1, or B) with its positions
     * @param memo       the image's memo
     * @param prompt     (B, Lp, d) prompt sequence
     * @param promptMask (B, Lp) true = padding
     * @param sink       receives the {@code encoder.*} stages
     * @return (B, H·W, d) the encoder memory, batch-first; its positions are {@code image.pos()}
     */
    @Override
    public NDArray encode(ImageTokens image, ImageMemo memo, NDArray prompt, NDArray promptMask, StageSink sink) {
        NDArray x;
        if (ComputeOptions.current().moduleGraphs() && NativeBf16Attention.serves(precision,
                image.tokens().getShape().get(2) / heads)) {
            x = encodeWithNativeSelfAttention(image, memo, prompt, promptMask);
        } else if (ComputeOptions.current().moduleGraphs()) {
            NDArray first = memo.get(FIRST_SELF_ATTENTION + ".graph", () -> PromptGraphs.fusionFirstSelfAttention(
                    image.tokens(), image.pos(), graph, heads, precision.bf16Attention()));
            x = PromptGraphs.fusionEncoder(first, image.pos(), prompt, promptMask, graph, layers.size(), heads,
                    precision.bf16Attention());
        } else {
            NDArray first = memo.get(FIRST_SELF_ATTENTION + ".ops",
                    () -> layers.get(0).selfAttention(image.tokens(), image.pos(), null));
            x = layers.get(0).crossAttentionAndFeedForward(first, prompt, null, promptMask);
            for (TransformerEncoderLayer layer : layers.subList(1, layers.size())) {
                NDArray next = layer.forward(x, image.pos(), null, prompt, null, promptMask);
                x.close();
                x = next;
            }
        }
        StageLayouts.recordSequenceFirst(sink, "encoder.memory", x);
        if (sink.active()) {
            try (NDArray pos = image.pos().broadcast(x.getShape())) {
                StageLayouts.recordSequenceFirst(sink, "encoder.pos_embed", pos);
            }
        }
        return x;
    }

    /**
     * The graph path with each layer's self-attention of the image tokens in the native bfloat16 kernel: per layer
     * one graph call up to the attention, the kernel, and one graph call for the rest of the layer.
     */
    private NDArray encodeWithNativeSelfAttention(ImageTokens image, ImageMemo memo, NDArray prompt,
            NDArray promptMask) {
        NDArray first = memo.get(FIRST_SELF_ATTENTION + ".graph",
                () -> nativeSelfAttention(image.tokens(), image.pos(), "layers.0"));
        NDArray x = PromptGraphs.fusionCrossAttentionAndFeedForward(first, prompt, promptMask, graph, "layers.0",
                heads, precision.bf16Attention());
        for (int i = 1; i < layers.size(); i++) {
            String layer = "layers." + i;
            NDArray next;
            try (NDArray afterSelf = nativeSelfAttention(x, image.pos(), layer)) {
                next = PromptGraphs.fusionCrossAttentionAndFeedForward(afterSelf, prompt, promptMask, graph, layer,
                        heads, precision.bf16Attention());
            }
            x.close();
            x = next;
        }
        return x;
    }

    private NDArray nativeSelfAttention(NDArray x, NDArray pos, String layer) {
        NDList qkv = PromptGraphs.selfAttentionProjections(x, pos, graph, layer);
        try (qkv; NDArray attended = NativeBf16Attention.attend(qkv.get(0), qkv.get(1), qkv.get(2), heads)) {
            return PromptGraphs.selfAttentionOutput(attended, x, graph, layer);
        }
    }
}
