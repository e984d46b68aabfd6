package io.sam3stream.model.vision;

import ai.djl.ndarray.NDArray;
import io.sam3stream.model.nn.Attention;
import io.sam3stream.model.nn.ComputeOptions;
import io.sam3stream.model.nn.GraphWeights;
import io.sam3stream.model.nn.FusedOps;
import io.sam3stream.model.nn.Linear;
import io.sam3stream.model.nn.NativeBf16Attention;
import io.sam3stream.model.nn.Params;
import io.sam3stream.model.nn.Precision;
import io.sam3stream.model.nn.Scopes;

/**
 * Multi-head self-attention of a ViT block (upstream {@code vitdet.Attention}): one packed {@code qkv} projection
 * whose output channels are [q | k | v], each split into heads; RoPE on q and k; softmax(q·kᵀ/√headDim)·v with no
 * mask; the output projection {@code proj}. In bfloat16 the whole attention is one TorchScript call
 * ({@link FusedOps#vitAttentionBf16}), so the 5184-token activations are narrowed and widened once each; where
 * {@link NativeBf16Attention} serves the precision, the attention between the two projections is that kernel's,
 * with q and k narrowed to bfloat16 after RoPE.
 */
public final class VitAttention {

    private final Linear qkv;
    private final Linear proj;
    private final int heads;
    private final AxialRope rope;

    private VitAttention(Linear qkv, Linear proj, int heads, AxialRope rope) {
        this.qkv = qkv;
        this.proj = proj;
        this.heads = heads;
        this.rope = rope;
    }

    /**
     * Loads {@code attn.qkv} and {@code attn.proj} of a block, their matrices blocked where the precision says so
     * ({@link Linear#withBlockedMatrix}); {@code rope} must match the token grid it sees.
     */
    public static VitAttention load(Params block, int heads, AxialRope rope) {
        return new VitAttention(Linear.load(block, "attn.qkv").withBlockedMatrix(),
                Linear.load(block, "attn.proj").withBlockedMatrix(), heads, rope);
    }

    /** Adds {@code qkv} and {@code proj} under {@code name} to a graph's parameters. */
    void addTo(GraphWeights.Builder graph, String name) {
        qkv.addTo(graph, name + ".qkv");
        proj.addTo(graph, name + ".proj");
    }

    /**
     * @param x (N, L, C): N independent sequences (windows, or whole images) of L row-major tokens
     * @return (N, L, C), to be read only (see {@link Linear#forwardReadOnly})
     */
    public NDArray forward(NDArray x) {
        long[] s = x.getShape().getShape();
        long n = s[0];
        long tokens = s[1];
        long dim = s[2];
        Precision precision = qkv.precision();
        if (NativeBf16Attention.serves(precision, dim / heads)) {
            try (NDArray rotated = FusedOps.vitRotatedQkvBf16(x, qkv.weight(), qkv.bias(), rope.complexTable(), heads);
                    NDArray attended = NativeBf16Attention.attendPacked(rotated, heads)) {
                return proj.forwardReadOnly(attended);
            }
        }
        if (precision.bf16Linear()) {
            return FusedOps.vitAttentionBf16(x, qkv.weight(), qkv.bias(), rope.complexTable(), heads, proj.weight(),
                    proj.bias(), precision.bf16Attention());
        }
        return Scopes.keep(() -> {
            NDArray projected = qkv.forwardReadOnly(x);
            // (3, N, heads, tokens, headDim) views of the projection
            NDArray packed = projected.reshape(n, tokens, 3, heads, dim / heads).transpose(2, 0, 3, 1, 4);
            NDArray q;
            NDArray k;
            if (ComputeOptions.current().fusedRope()) {
                NDArray rotated = rope.rotateQk(projected, heads).transpose(2, 0, 3, 1, 4);
                q = rotated.get(0);
                k = rotated.get(1);
            } else {
                q = rope.apply(packed.get(0));
                k = rope.apply(packed.get(1));
            }
            NDArray attended = Attention.scaledDotProduct(q, k, packed.get(2), null, precision);
            return proj.forwardReadOnly(attended.transpose(0, 2, 1, 3).reshape(n, tokens, dim));
        });
    }
}
