package io.sam3stream.model.decoder;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.index.NDIndex;
import io.sam3stream.model.nn.GraphWeights;
import io.sam3stream.model.nn.Mlp;
import io.sam3stream.model.nn.Params;
import io.sam3stream.model.nn.Scopes;

/**
 * The box-relative position bias of the decoder's image cross-attention (upstream
 * {@code TransformerDecoder._get_rpb_matrix} with {@code boxRPB="log"}, docs/MODEL.md §8.3). For every query and
 * feature-map row y the signed distances from y/H to the reference box's top and bottom edges are log-scaled and
 * mapped by {@code boxRPB_embed_y} to one bias per head; columns likewise with the left and right edges and
 * {@code boxRPB_embed_x}. The bias of pixel (y, x) is the sum of its row and column terms.
 */
public final class BoxRelativePositionBias {

    /** Deltas in [−1, 1] are stretched to [−8, 8] before the log. */
    private static final float LOG_STRETCH = 8f;
    /** log2(8): maps log2(8 + 1) back to about 1. */
    private static final float LOG_NORMALISER = 3f;

    private final Mlp embedX;
    private final Mlp embedY;

    /**
     * @param embedX maps the log-scaled distances (2) of a column to the left and right edges to one bias per head
     * @param embedY the same for a row and the top and bottom edges
     */
    public BoxRelativePositionBias(Mlp embedX, Mlp embedY) {
        this.embedX = embedX;
        this.embedY = embedY;
    }

    /** Loads {@code boxRPB_embed_x} and {@code boxRPB_embed_y} ({@code MLP(2, d, heads, 2)} each). */
    public static BoxRelativePositionBias load(Params decoder) {
        return new BoxRelativePositionBias(Mlp.load(decoder, "boxRPB_embed_x", 2),
                Mlp.load(decoder, "boxRPB_embed_y", 2));
    }

    /** Adds {@code boxRPB_embed_x} and {@code boxRPB_embed_y} to the decoder graph's parameters. */
    void addTo(GraphWeights.Builder graph) {
        embedX.addTo(graph, "boxRPB_embed_x");
        embedY.addTo(graph, "boxRPB_embed_y");
    }

    /**
     * @param referenceBoxes cxcywh boxes in [0, 1], (B, Q, 4)
     * @param height         feature-map rows H
     * @param width          feature-map columns W
     * @return additive attention bias (B, heads, Q, H·W), key index y·W + x
     */
    public NDArray bias(NDArray referenceBoxes, int height, int width) {
        return Scopes.keep(() -> {
            NDArray xyxy = Boxes.cxcywhToXyxy(referenceBoxes);
            NDArray rows = embedY.forward(logScale(edgeDeltas(xyxy.get(new NDIndex("..., 1::2")), height)));
            NDArray columns = embedX.forward(logScale(edgeDeltas(xyxy.get(new NDIndex("..., 0::2")), width)));
            long[] s = rows.getShape().getShape();
            NDArray perPixel = rows.expandDims(3).add(columns.expandDims(2));
            return perPixel.reshape(s[0], s[1], (long) height * width, s[3]).transpose(0, 3, 1, 2);
        });
    }

    /**
     * Signed distances i/n − edge from the grid lines i = 0..n−1 (not pixel centres) to both edges of each box.
     *
     * @param edges (B, Q, 2) the box's two edges along one axis
     * @return (B, Q, n, 2)
     */
    private static NDArray edgeDeltas(NDArray edges, int n) {
        NDManager manager = edges.getManager();
        NDArray grid = manager.arange(0f, n, 1f).div((float) n).reshape(1, 1, n, 1);
        return grid.sub(edges.expandDims(2));
    }

    /** sign(8δ)·log2(|8δ| + 1) / log2(8): a symmetric log scale that keeps near distances apart. */
    static NDArray logScale(NDArray deltas) {
        return Scopes.keep(() -> {
            NDArray stretched = deltas.mul(LOG_STRETCH);
            return stretched.sign().mul(stretched.abs().add(1f).log2()).div(LOG_NORMALISER);
        });
    }
}
