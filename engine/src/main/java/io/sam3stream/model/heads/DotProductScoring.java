package io.sam3stream.model.heads;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import io.sam3stream.model.nn.ComputeOptions;
import io.sam3stream.model.nn.GraphWeights;
import io.sam3stream.model.nn.LayerNorm;
import io.sam3stream.model.nn.Linear;
import io.sam3stream.model.nn.Mlp;
import io.sam3stream.model.nn.Params;
import io.sam3stream.model.nn.Precision;
import io.sam3stream.model.nn.PromptGraphs;
import io.sam3stream.model.nn.Scopes;

/**
 * The per-query class logit (upstream {@code model_misc.DotProductScoring}, docs/MODEL.md §9): the prompt goes
 * through a residual 2-layer MLP with an output LayerNorm, is mean-pooled over its valid tokens and projected; each
 * query is projected too, and the logit is their dot product / √d_proj, clamped to ±12. Presence is not part of it.
 */
public final class DotProductScoring {

    /** Upstream clamps the logits in place to ±12 "to avoid numerical issues"; the clamp is effective. */
    private static final float CLAMP = 12f;

    private final Mlp promptMlp;
    private final LayerNorm promptMlpNorm;
    private final Linear promptProj;
    private final Linear hsProj;
    /** The same parameters for {@link PromptGraphs#scoring}; null for {@link Precision#BF16_LINEAR} layers. */
    private final GraphWeights graph;

    /**
     * @param promptMlp     the prompt MLP's layers; its input is added back to its output
     * @param promptMlpNorm the LayerNorm after that residual
     * @param promptProj    projection of the pooled prompt
     * @param hsProj        projection of the queries
     */
    public DotProductScoring(Mlp promptMlp, LayerNorm promptMlpNorm, Linear promptProj, Linear hsProj) {
        this.promptMlp = promptMlp;
        this.promptMlpNorm = promptMlpNorm;
        this.promptProj = promptProj;
        this.hsProj = hsProj;
        this.graph = promptProj.precision().singleFormat()
                ? graphWeights(promptMlp.layers().get(0).weight().getManager())
                : null;
    }

    private GraphWeights graphWeights(NDManager owner) {
        GraphWeights.Builder graph = GraphWeights.builder();
        promptMlp.addTo(graph, "prompt_mlp");
        promptMlpNorm.addTo(graph, "prompt_mlp.out_norm");
        promptProj.addTo(graph, "prompt_proj");
        hsProj.addTo(graph, "hs_proj");
        return graph.build(owner);
    }

    /** Loads the {@code dot_prod_scoring} subtree. */
    public static DotProductScoring load(Params scoring) {
        return new DotProductScoring(Mlp.load(scoring, "prompt_mlp", 2),
                LayerNorm.load(scoring, "prompt_mlp.out_norm"), Linear.load(scoring, "prompt_proj"),
                Linear.load(scoring, "hs_proj"));
    }

    /**
     * @param hs         decoder queries of any number of layers, (L, B, Q, d)
     * @param prompt     the prompt tokens as given to the decoder (B, S, d)
     * @param promptMask prompt key-padding mask (B, S), true = padding
     * @return logits (L, B, Q, 1)
     */
    public NDArray forward(NDArray hs, NDArray prompt, NDArray promptMask) {
        if (graph != null && ComputeOptions.current().moduleGraphs()) {
            return PromptGraphs.scoring(hs, prompt, promptMask, graph);
        }
        return Scopes.keep(() -> {
            NDArray promptFeatures = promptMlpNorm.forward(promptMlp.forward(prompt).add(prompt));
            NDArray pooled = promptProj.forward(meanOverValidTokens(promptFeatures, promptMask));
            NDArray queries = hsProj.forward(hs);
            float scale = (float) (1.0 / Math.sqrt(queries.getShape().get(3)));
            // (L, B, Q, p) @ (B, p, 1): the prompt broadcasts over the layers.
            return queries.matMul(pooled.expandDims(-1)).mul(scale).clip(-CLAMP, CLAMP);
        });
    }

    /** Mean of the tokens whose mask is false, (B, d); a prompt with no valid token divides by 1. */
    private static NDArray meanOverValidTokens(NDArray tokens, NDArray paddingMask) {
        NDArray valid = paddingMask.logicalNot().toType(DataType.FLOAT32, false).expandDims(-1);
        NDArray count = valid.sum(new int[] {1}).maximum(1f);
        return tokens.mul(valid).sum(new int[] {1}).div(count);
    }
}
