package io.sam3stream.model.fusion;

import ai.djl.ndarray.NDArray;
import ai.djl.nn.Activation;
import io.sam3stream.model.nn.GraphWeights;
import io.sam3stream.model.nn.LayerNorm;
import io.sam3stream.model.nn.Linear;
import io.sam3stream.model.nn.MultiheadAttention;
import io.sam3stream.model.nn.Params;

/**
 * The pre-norm layer shared by the fusion encoder and the geometry encoder (upstream
 * {@code TransformerEncoderLayer.forward_pre}, {@code sam3/model/encoder.py}):
 * <pre>
 *   t += self_attn(q = k = norm1(t) [+ tgtPos], v = norm1(t), key_padding_mask = tgtPaddingMask)
 *   t += cross_attn_image(q = norm2(t), k = memory [+ memoryPos], v = memory, key_padding_mask = memoryPaddingMask)
 *   t += linear2(relu(linear1(norm3(t))))
 * </pre>
 * Upstream switches the position terms on with {@code pos_enc_at_attn} (fusion encoder: image positions on the
 * self-attention) and {@code pos_enc_at_cross_attn_keys} (geometry encoder: image positions on the cross-attention
 * keys); here a caller passes the positions it wants added and null for the others. Queries of the
 * cross-attention never get positions in SAM3.
 *
 * <p>All sequences are batch-first. {@code tgt} and {@code memory} may differ in batch size when one of them is 1:
 * one image's tokens then attend to several prompts (or the reverse) without being copied.
 */
public final class TransformerEncoderLayer {

    private final LayerNorm norm1;
    private final MultiheadAttention selfAttn;
    private final LayerNorm norm2;
    private final MultiheadAttention crossAttn;
    private final LayerNorm norm3;
    private final Linear linear1;
    private final Linear linear2;

    private TransformerEncoderLayer(LayerNorm norm1, MultiheadAttention selfAttn, LayerNorm norm2,
            MultiheadAttention crossAttn, LayerNorm norm3, Linear linear1, Linear linear2) {
        this.norm1 = norm1;
        this.selfAttn = selfAttn;
        this.norm2 = norm2;
        this.crossAttn = crossAttn;
        this.norm3 = norm3;
        this.linear1 = linear1;
        this.linear2 = linear2;
    }

    /** Loads {@code self_attn}, {@code cross_attn_image}, {@code linear1/2} and {@code norm1..3}. */
    public static TransformerEncoderLayer load(Params layer, int heads) {
        return new TransformerEncoderLayer(
                LayerNorm.load(layer, "norm1"),
                MultiheadAttention.load(layer, "self_attn", heads),
                LayerNorm.load(layer, "norm2"),
                MultiheadAttention.load(layer, "cross_attn_image", heads),
                LayerNorm.load(layer, "norm3"),
                Linear.load(layer, "linear1"),
                Linear.load(layer, "linear2"));
    }

    /** Adds this layer's parameters under {@code name} to a graph's. */
    public void addTo(GraphWeights.Builder graph, String name) {
        norm1.addTo(graph, name + ".norm1");
        selfAttn.addTo(graph, name + ".self_attn");
        norm2.addTo(graph, name + ".norm2");
        crossAttn.addTo(graph, name + ".cross_attn_image");
        norm3.addTo(graph, name + ".norm3");
        linear1.addTo(graph, name + ".linear1");
        linear2.addTo(graph, name + ".linear2");
    }

    /**
     * @param tgt               (Bt, Lt, d) the sequence being encoded, not modified
     * @param tgtPos            positions added to the self-attention queries and keys, or null
     * @param tgtPaddingMask    (Bt, Lt) true = padding, masked as self-attention keys; or null
     * @param memory            (Bm, Lm, d) the sequence cross-attended to
     * @param memoryPos         positions added to the cross-attention keys, or null
     * @param memoryPaddingMask (Bm, Lm) true = padding; or null
     * @return (max(Bt, Bm), Lt, d)
     */
    public NDArray forward(NDArray tgt, NDArray tgtPos, NDArray tgtPaddingMask, NDArray memory, NDArray memoryPos,
            NDArray memoryPaddingMask) {
        try (NDArray afterSelf = selfAttention(tgt, tgtPos, tgtPaddingMask)) {
            return crossAttentionAndFeedForward(afterSelf, memory, memoryPos, memoryPaddingMask);
        }
    }

    /**
     * The first of the layer's three steps, which reads {@code tgt} alone: in the fusion encoder's first layer it
     * depends on the image only, so a cached image keeps it for every later prompt.
     *
     * @return (Bt, Lt, d) {@code tgt} plus its self-attention
     */
    public NDArray selfAttention(NDArray tgt, NDArray tgtPos, NDArray tgtPaddingMask) {
        NDArray normed = norm1.forward(tgt);
        NDArray queryKey = tgtPos == null ? normed : normed.add(tgtPos);
        NDArray attended = selfAttn.forward(queryKey, queryKey, normed, tgtPaddingMask, null);
        if (queryKey != normed) {
            queryKey.close();
        }
        normed.close();
        NDArray afterSelf = tgt.add(attended);
        attended.close();
        return afterSelf;
    }

    /**
     * The layer's cross-attention and feed-forward steps, after {@link #selfAttention}.
     *
     * @param afterSelf (Bt, Lt, d) the self-attention step's result, not modified
     * @return (max(Bt, Bm), Lt, d)
     */
    public NDArray crossAttentionAndFeedForward(NDArray afterSelf, NDArray memory, NDArray memoryPos,
            NDArray memoryPaddingMask) {
        NDArray normed = norm2.forward(afterSelf);
        NDArray keys = memoryPos == null ? memory : memory.add(memoryPos);
        NDArray attended = crossAttn.forward(normed, keys, memory, memoryPaddingMask, null);
        if (keys != memory) {
            keys.close();
        }
        normed.close();
        // not in place: the memory's batch may broadcast the result to more rows than afterSelf has
        NDArray out = afterSelf.add(attended);
        attended.close();

        normed = norm3.forward(out);
        NDArray hidden = linear1.forward(normed);
        normed.close();
        NDArray activated = Activation.relu(hidden);
        hidden.close();
        NDArray ffn = linear2.forward(activated);
        activated.close();
        out.addi(ffn);
        ffn.close();
        return out;
    }
}
