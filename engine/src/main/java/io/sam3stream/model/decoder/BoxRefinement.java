package io.sam3stream.model.decoder;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDArrays;
import ai.djl.nn.Activation;
import io.sam3stream.model.nn.GraphWeights;
import io.sam3stream.model.nn.Mlp;
import io.sam3stream.model.nn.Params;
import io.sam3stream.model.nn.Scopes;

/**
 * Iterative box refinement of the decoder (docs/MODEL.md §8.5): the shared {@code bbox_embed} MLP predicts an offset
 * in logit space, {@code new = sigmoid(inverse_sigmoid(ref) + bbox_embed(hs))}.
 */
public final class BoxRefinement {

    /** Clamp of {@code inverse_sigmoid} (upstream {@code model_misc.inverse_sigmoid}). */
    static final float INVERSE_SIGMOID_EPS = 1e-3f;

    private final Mlp bboxEmbed;

    /** @param bboxEmbed the shared box head, d → 4 offsets in logit space */
    public BoxRefinement(Mlp bboxEmbed) {
        this.bboxEmbed = bboxEmbed;
    }

    /** Loads {@code name.layers.0..2} ({@code MLP(d, d, 4, 3)}). */
    public static BoxRefinement load(Params p, String name) {
        return new BoxRefinement(Mlp.load(p, name, 3));
    }

    /** Adds {@code bbox_embed} to the decoder graph's parameters. */
    void addTo(GraphWeights.Builder graph) {
        bboxEmbed.addTo(graph, "bbox_embed");
    }

    /**
     * @param reference boxes in sigmoid space (…, 4), cxcywh
     * @param hs        the normed decoder output of the same queries (…, d)
     * @return the refined boxes (…, 4), cxcywh in [0, 1]
     */
    public NDArray refine(NDArray reference, NDArray hs) {
        return Scopes.keep(() -> Activation.sigmoid(inverseSigmoid(reference).add(bboxEmbed.forward(hs))));
    }

    /** log(x / (1 − x)) with x clamped to [0, 1] and both x and 1 − x clamped below at 1e-3. */
    public static NDArray inverseSigmoid(NDArray x) {
        return Scopes.keep(() -> {
            NDArray clamped = x.clip(0f, 1f);
            NDArray numerator = clamped.maximum(INVERSE_SIGMOID_EPS);
            NDArray denominator = NDArrays.sub(1f, clamped).maximum(INVERSE_SIGMOID_EPS);
            return numerator.div(denominator).log();
        });
    }
}
