package io.sam3stream.model.text;

import ai.djl.ndarray.NDArray;
import io.sam3stream.model.nn.GraphWeights;
import io.sam3stream.model.nn.LayerNorm;
import io.sam3stream.model.nn.Linear;
import io.sam3stream.model.nn.MultiheadAttention;
import io.sam3stream.model.nn.Params;

/**
 * One pre-norm block of the text transformer (upstream {@code ResidualAttentionBlock},
 * {@code sam3/model/text_encoder_ve.py}): {@code x += attn(ln_1(x))}, then {@code x += c_proj(gelu(c_fc(ln_2(x))))}
 * with the exact (erf) GELU and no layer scale.
 */
final class ResidualAttentionBlock {

    private final LayerNorm ln1;
    private final MultiheadAttention attn;
    private final LayerNorm ln2;
    private final Linear fc;
    private final Linear proj;

    private ResidualAttentionBlock(LayerNorm ln1, MultiheadAttention attn, LayerNorm ln2, Linear fc, Linear proj) {
        this.ln1 = ln1;
        this.attn = attn;
        this.ln2 = ln2;
        this.fc = fc;
        this.proj = proj;
    }

    /**
     * Loads {@code ln_1}, {@code attn} (packed {@code in_proj}), {@code ln_2} and {@code mlp.c_fc/c_proj}, the matrices
     * blocked for products of a few rows (a prompt's tokens) where the precision does that.
     */
    static ResidualAttentionBlock load(Params block, int heads) {
        return new ResidualAttentionBlock(
                LayerNorm.load(block, "ln_1"),
                MultiheadAttention.load(block, "attn", heads).withBlockedMatricesForFewRows(),
                LayerNorm.load(block, "ln_2"),
                Linear.load(block, "mlp.c_fc").withBlockedMatrixForFewRows(),
                Linear.load(block, "mlp.c_proj").withBlockedMatrixForFewRows());
    }

    /** Adds this block's parameters under {@code name} to a graph's. */
    void addTo(GraphWeights.Builder graph, String name) {
        ln1.addTo(graph, name + ".ln_1");
        attn.addTo(graph, name + ".attn");
        ln2.addTo(graph, name + ".ln_2");
        fc.addTo(graph, name + ".mlp.c_fc");
        proj.addTo(graph, name + ".mlp.c_proj");
    }

    int heads() {
        return attn.heads();
    }

    /**
     * @param x         (B, L, width), not modified
     * @param causality additive attention bias broadcastable to (B, heads, L, L)
     * @return (B, L, width)
     */
    NDArray forward(NDArray x, NDArray causality) {
        NDArray normed = ln1.forward(x);
        NDArray attended = attn.forward(normed, normed, normed, null, causality);
        normed.close();
        NDArray out = x.add(attended);
        attended.close();

        NDArray mlpIn = ln2.forward(out);
        NDArray activated = fc.forwardGelu(mlpIn);
        mlpIn.close();
        NDArray mlpOut = proj.forward(activated);
        activated.close();
        out.addi(mlpOut);
        mlpOut.close();
        return out;
    }
}
