package io.sam3stream.model.vision;

import ai.djl.ndarray.NDArray;
import io.sam3stream.model.nn.GraphWeights;
import io.sam3stream.model.nn.LayerNorm;
import io.sam3stream.model.nn.Params;
import io.sam3stream.model.nn.Scopes;

/**
 * One pre-norm ViT block (upstream {@code vitdet.Block}, no layer scale, no relative position bias):
 * {@code x += attn(LN1(x))} then {@code x += mlp(LN2(x))}. A windowed block cuts the normalised map into windows
 * before attention and stitches them back before the residual; a global block attends over the whole grid.
 */
public final class VitBlock {

    private final LayerNorm norm1;
    private final VitAttention attn;
    private final LayerNorm norm2;
    private final VitMlp mlp;
    /** Window side in tokens, or 0 for global attention. */
    private final int window;

    private VitBlock(LayerNorm norm1, VitAttention attn, LayerNorm norm2, VitMlp mlp, int window) {
        this.norm1 = norm1;
        this.attn = attn;
        this.norm2 = norm2;
        this.mlp = mlp;
        this.window = window;
    }

    /**
     * Loads {@code norm1}, {@code attn}, {@code norm2} and {@code mlp} of one block.
     *
     * @param window window side, or 0 for a global block
     * @param rope   the RoPE table for the grid this block attends over (window² or grid² tokens)
     */
    public static VitBlock load(Params block, int heads, int window, AxialRope rope) {
        return new VitBlock(LayerNorm.load(block, "norm1"), VitAttention.load(block, heads, rope),
                LayerNorm.load(block, "norm2"), VitMlp.load(block), window);
    }

    /**
     * @param x (B, H, W, C)
     * @return (B, H, W, C), a new array
     */
    public NDArray forward(NDArray x) {
        long[] s = x.getShape().getShape();
        if (window == 0) {
            return Scopes.keep(() -> forwardSequences(x.reshape(s[0], s[1] * s[2], s[3])).reshape(s));
        }
        return Scopes.keep(() -> {
            NDArray normed = norm1.forward(x);
            NDArray windows = WindowPartition.partition(normed, window);
            long count = windows.getShape().get(0);
            NDArray out = attn.forward(windows.reshape(count, (long) window * window, s[3]));
            NDArray attended = WindowPartition.unpartition(out.reshape(count, window, window, s[3]), window, s[1],
                    s[2]);
            NDArray residual = x.add(attended);
            residual.addi(mlp.forward(norm2.forward(residual)));
            return residual;
        });
    }

    /**
     * The block on tokens already grouped into the sequences its attention runs over: the windows of a windowed
     * block (as {@link WindowPartition} cuts them) or whole maps of a global block. Everything but the attention
     * acts on each token alone, so a run of windowed blocks can stay in window order from one block to the next.
     *
     * @param x (N, L, C): N sequences of L tokens, L = window² for a windowed block
     * @return (N, L, C), a new array
     */
    public NDArray forwardSequences(NDArray x) {
        return Scopes.keep(() -> {
            NDArray residual = x.add(attn.forward(norm1.forward(x)));
            residual.addi(mlp.forward(norm2.forward(residual)));
            return residual;
        });
    }

    /** Adds the block's parameters under {@code name} to a graph's ({@code norm1}, {@code attn.*}, ...). */
    void addTo(GraphWeights.Builder graph, String name) {
        norm1.addTo(graph, name + ".norm1");
        attn.addTo(graph, name + ".attn");
        norm2.addTo(graph, name + ".norm2");
        mlp.fc1().addTo(graph, name + ".mlp.fc1");
        mlp.fc2().addTo(graph, name + ".mlp.fc2");
    }

    /** Window side in tokens, or 0 for a global block. */
    public int window() {
        return window;
    }
}
