package io.sam3stream.model.decoder;

import ai.djl.ndarray.NDArray;
import ai.djl.nn.Activation;
import io.sam3stream.model.nn.GraphWeights;
import io.sam3stream.model.nn.LayerNorm;
import io.sam3stream.model.nn.Linear;
import io.sam3stream.model.nn.MultiheadAttention;
import io.sam3stream.model.nn.Params;
import io.sam3stream.model.nn.Scopes;

/**
 * One post-norm decoder layer (upstream {@code TransformerDecoderLayer}, docs/MODEL.md §8.4): self-attention among
 * the queries, cross-attention to the prompt tokens, cross-attention to the image memory under the box-relative
 * bias, then a ReLU feed-forward block; each sub-block is residual and followed by its own LayerNorm. All tensors
 * are batch-first.
 */
public final class DecoderLayer {

    private final MultiheadAttention selfAttention;
    private final LayerNorm selfAttentionNorm;
    private final MultiheadAttention textCrossAttention;
    private final LayerNorm textCrossAttentionNorm;
    private final MultiheadAttention imageCrossAttention;
    private final LayerNorm imageCrossAttentionNorm;
    private final Linear feedForwardIn;
    private final Linear feedForwardOut;
    private final LayerNorm feedForwardNorm;

    private DecoderLayer(MultiheadAttention selfAttention, LayerNorm selfAttentionNorm,
            MultiheadAttention textCrossAttention, LayerNorm textCrossAttentionNorm,
            MultiheadAttention imageCrossAttention, LayerNorm imageCrossAttentionNorm, Linear feedForwardIn,
            Linear feedForwardOut, LayerNorm feedForwardNorm) {
        this.selfAttention = selfAttention;
        this.selfAttentionNorm = selfAttentionNorm;
        this.textCrossAttention = textCrossAttention;
        this.textCrossAttentionNorm = textCrossAttentionNorm;
        this.imageCrossAttention = imageCrossAttention;
        this.imageCrossAttentionNorm = imageCrossAttentionNorm;
        this.feedForwardIn = feedForwardIn;
        this.feedForwardOut = feedForwardOut;
        this.feedForwardNorm = feedForwardNorm;
    }

    /**
     * Loads one {@code layers.<i>} subtree: {@code self_attn} with {@code norm2}, {@code ca_text} with
     * {@code catext_norm}, {@code cross_attn} with {@code norm1}, and {@code linear1}, {@code linear2} with
     * {@code norm3}.
     */
    public static DecoderLayer load(Params layer, int heads) {
        return new DecoderLayer(
                MultiheadAttention.load(layer, "self_attn", heads), LayerNorm.load(layer, "norm2"),
                MultiheadAttention.load(layer, "ca_text", heads), LayerNorm.load(layer, "catext_norm"),
                MultiheadAttention.load(layer, "cross_attn", heads), LayerNorm.load(layer, "norm1"),
                Linear.load(layer, "linear1"), Linear.load(layer, "linear2"), LayerNorm.load(layer, "norm3"));
    }

    /** Adds this layer's parameters under {@code name} ({@code layers.<i>}) to the decoder graph's. */
    void addTo(GraphWeights.Builder graph, String name) {
        selfAttention.addTo(graph, name + ".self_attn");
        selfAttentionNorm.addTo(graph, name + ".norm2");
        textCrossAttention.addTo(graph, name + ".ca_text");
        textCrossAttentionNorm.addTo(graph, name + ".catext_norm");
        imageCrossAttention.addTo(graph, name + ".cross_attn");
        imageCrossAttentionNorm.addTo(graph, name + ".norm1");
        feedForwardIn.addTo(graph, name + ".linear1");
        feedForwardOut.addTo(graph, name + ".linear2");
        feedForwardNorm.addTo(graph, name + ".norm3");
    }

    /**
     * @param tokens      presence token followed by the queries, (B, 1+Q, d)
     * @param queryPos    their positional embedding (zero for the presence token), (B, 1+Q, d)
     * @param prompt      prompt tokens (B, S, d)
     * @param promptMask  prompt key-padding mask (B, S), true = padding
     * @param memoryKeys  image memory plus its position encoding, (B, HW, d)
     * @param memory      image memory (B, HW, d), the values of the image cross-attention
     * @param imageBias   additive bias of the image cross-attention, (B, heads, 1+Q, HW)
     * @return the updated tokens (B, 1+Q, d)
     */
    public NDArray forward(NDArray tokens, NDArray queryPos, NDArray prompt, NDArray promptMask, NDArray memoryKeys,
            NDArray memory, NDArray imageBias) {
        return Scopes.keep(() -> {
            NDArray positioned = tokens.add(queryPos);
            NDArray t = selfAttentionNorm.forward(
                    tokens.add(selfAttention.forward(positioned, positioned, tokens, null, null)));
            NDArray attendedText = textCrossAttention.forward(t.add(queryPos), prompt, prompt, promptMask, null);
            t = textCrossAttentionNorm.forward(t.add(attendedText));
            NDArray attendedImage = imageCrossAttention.forward(t.add(queryPos), memoryKeys, memory, null, imageBias);
            t = imageCrossAttentionNorm.forward(t.add(attendedImage));
            NDArray feedForward = feedForwardOut.forward(Activation.relu(feedForwardIn.forward(t)));
            return feedForwardNorm.forward(t.add(feedForward));
        });
    }
}
