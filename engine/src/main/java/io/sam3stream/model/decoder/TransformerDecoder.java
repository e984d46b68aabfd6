package io.sam3stream.model.decoder;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDArrays;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.index.NDIndex;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.Activation;
import io.sam3stream.model.config.Sam3Config;
import io.sam3stream.model.nn.ComputeOptions;
import io.sam3stream.model.nn.GraphWeights;
import io.sam3stream.model.nn.LayerNorm;
import io.sam3stream.model.nn.Mlp;
import io.sam3stream.model.nn.Params;
import io.sam3stream.model.nn.Precision;
import io.sam3stream.model.nn.PromptGraphs;
import io.sam3stream.model.nn.Scopes;
import io.sam3stream.model.nn.StageSink;
import java.util.ArrayList;
import java.util.List;

/**
 * SAM3's DETR-style decoder (upstream {@code TransformerDecoder}, docs/MODEL.md §8): learned queries with learned
 * reference boxes, a presence token that rides along with the queries, and per layer a box-conditioned query
 * position, the box-relative attention bias, one {@link DecoderLayer}, the shared output LayerNorm, box refinement
 * and the presence logit. Inference path only: no DAC/o2m queries, a single feature level, no memory padding.
 *
 * <p>Tensors are batch-first; B is the number of prompts of one image.
 */
public final class TransformerDecoder {

    private final List<DecoderLayer> layers;
    private final LayerNorm outputNorm;
    private final BoxRefinement boxRefinement;
    private final NDArray queryEmbed;
    private final NDArray referencePoints;
    private final BoxRelativePositionBias positionBias;
    private final Mlp refPointHead;
    private final NDArray presenceToken;
    private final LayerNorm presenceOutNorm;
    private final Mlp presenceHead;
    private final int dModel;
    private final int heads;
    private final int grid;
    /** The same parameters for {@link PromptGraphs#decoder}; null for {@link Precision#BF16_LINEAR} layers. */
    private final GraphWeights graph;

    private TransformerDecoder(List<DecoderLayer> layers, LayerNorm outputNorm, BoxRefinement boxRefinement,
            NDArray queryEmbed, NDArray referencePoints, BoxRelativePositionBias positionBias, Mlp refPointHead,
            NDArray presenceToken, LayerNorm presenceOutNorm, Mlp presenceHead, int dModel, int heads, int grid,
            Params decoder) {
        this.layers = List.copyOf(layers);
        this.outputNorm = outputNorm;
        this.boxRefinement = boxRefinement;
        this.queryEmbed = queryEmbed;
        this.referencePoints = referencePoints;
        this.positionBias = positionBias;
        this.refPointHead = refPointHead;
        this.presenceToken = presenceToken;
        this.presenceOutNorm = presenceOutNorm;
        this.presenceHead = presenceHead;
        this.dModel = dModel;
        this.heads = heads;
        this.grid = grid;
        this.graph = decoder.precision().singleFormat() ? graphWeights(decoder) : null;
    }

    private GraphWeights graphWeights(Params decoder) {
        GraphWeights.Builder graph = GraphWeights.builder();
        for (int i = 0; i < layers.size(); i++) {
            layers.get(i).addTo(graph, "layers." + i);
        }
        outputNorm.addTo(graph, "norm");
        boxRefinement.addTo(graph);
        positionBias.addTo(graph);
        refPointHead.addTo(graph, "ref_point_head");
        presenceOutNorm.addTo(graph, "presence_token_out_norm");
        presenceHead.addTo(graph, "presence_token_head");
        graph.put("query_embed.weight", queryEmbed);
        graph.put("reference_points.weight", referencePoints);
        graph.put("presence_token.weight", presenceToken);
        return graph.build(decoder.manager());
    }

    /** Loads the decoder from its {@code transformer.decoder} subtree. */
    public static TransformerDecoder load(Params decoder, Sam3Config config) {
        int heads = config.decoder().heads();
        List<DecoderLayer> layers = new ArrayList<>();
        for (int i = 0; i < config.decoder().layers(); i++) {
            layers.add(DecoderLayer.load(decoder.sub("layers." + i), heads));
        }
        NDArray queryEmbed = decoder.get("query_embed.weight");
        Shape expected = new Shape(config.numQueries(), config.dModel());
        if (!queryEmbed.getShape().equals(expected)) {
            throw new IllegalArgumentException("query_embed has shape " + queryEmbed.getShape() + ", config says "
                    + expected);
        }
        return new TransformerDecoder(layers, LayerNorm.load(decoder, "norm"),
                BoxRefinement.load(decoder, "bbox_embed"), queryEmbed, decoder.get("reference_points.weight"),
                BoxRelativePositionBias.load(decoder), Mlp.load(decoder, "ref_point_head", 2),
                decoder.get("presence_token.weight"), LayerNorm.load(decoder, "presence_token_out_norm"),
                Mlp.load(decoder, "presence_token_head", 3), config.dModel(), heads, config.grid(), decoder);
    }

    /**
     * Runs every layer. Records {@code decoder.hs}, {@code decoder.ref_boxes}, {@code decoder.presence_logits} and
     * {@code decoder.presence_feats} in the golden layouts.
     *
     * @param memory     fused image memory (B, G·G, d), token index y·G + x
     * @param memoryPos  its sine position encoding, (B or 1, G·G, d)
     * @param prompt     prompt tokens (B, S, d)
     * @param promptMask prompt key-padding mask (B, S), true = padding
     */
    public DecoderOutput forward(NDArray memory, NDArray memoryPos, NDArray prompt, NDArray promptMask,
            StageSink sink) {
        long tokens = memory.getShape().get(1);
        if (tokens != (long) grid * grid) {
            throw new IllegalArgumentException("memory has " + tokens + " tokens, expected " + grid + "×" + grid);
        }
        if (graph != null && ComputeOptions.current().moduleGraphs()) {
            return forwardGraph(memory, memoryPos, prompt, promptMask, sink);
        }
        NDList out = Scopes.keepAll(() -> {
            long batch = memory.getShape().get(0);
            NDArray queries = queryEmbed.expandDims(0).broadcast(batch, queryEmbed.getShape().get(0), dModel);
            NDArray boxes = Activation.sigmoid(referencePoints).expandDims(0)
                    .broadcast(batch, referencePoints.getShape().get(0), 4);
            NDArray presence = presenceToken.expandDims(0).broadcast(batch, 1, dModel);
            NDArray memoryKeys = memory.add(memoryPos);
            NDList hs = new NDList();
            NDList layerBoxes = new NDList();
            NDList presenceLogits = new NDList();
            for (DecoderLayer layer : layers) {
                layerBoxes.add(boxes);
                NDList step = step(layer, queries, presence, boxes, prompt, promptMask, memoryKeys, memory);
                presence = step.get(0);
                queries = step.get(1);
                hs.add(step.get(2));
                boxes = step.get(3);
                presenceLogits.add(step.get(4));
            }
            NDArray allHs = NDArrays.stack(hs);
            NDArray allPresenceLogits = NDArrays.stack(presenceLogits);
            if (sink.active()) {
                sink.record("decoder.hs", allHs);
                sink.record("decoder.ref_boxes", NDArrays.stack(layerBoxes));
                sink.record("decoder.presence_logits", allPresenceLogits);
                sink.record("decoder.presence_feats", presence.transpose(1, 0, 2));
            }
            return new NDList(allHs, boxes, allPresenceLogits);
        });
        // The query state grew from the weights, so hand the results to the caller's manager, not the model's.
        out.attach(memory.getManager());
        return new DecoderOutput(out.get(0), out.get(1), out.get(2));
    }

    /** {@link #forward} as one call of the compiled graph. */
    private DecoderOutput forwardGraph(NDArray memory, NDArray memoryPos, NDArray prompt, NDArray promptMask,
            StageSink sink) {
        NDList out = PromptGraphs.decoder(memory, memoryPos, prompt, promptMask, graph, layers.size(), heads, grid);
        NDArray layerBoxes = out.get(3);
        NDArray presenceFeatures = out.get(4);
        if (sink.active()) {
            sink.record("decoder.hs", out.get(0));
            sink.record("decoder.ref_boxes", layerBoxes);
            sink.record("decoder.presence_logits", out.get(2));
            sink.record("decoder.presence_feats", presenceFeatures);
        }
        layerBoxes.close();
        presenceFeatures.close();
        return new DecoderOutput(out.get(0), out.get(1), out.get(2));
    }

    /**
     * One layer with its conditioning and read-outs (docs/MODEL.md §8.1).
     *
     * @return presence token (B, 1, d), un-normed queries (B, Q, d), normed queries hs (B, Q, d), refined boxes
     *         (B, Q, 4), presence logit (B, 1)
     */
    private NDList step(DecoderLayer layer, NDArray queries, NDArray presence, NDArray boxes, NDArray prompt,
            NDArray promptMask, NDArray memoryKeys, NDArray memory) {
        return Scopes.keepAll(() -> {
            NDManager manager = queries.getManager();
            long batch = queries.getShape().get(0);
            NDArray queryPos = refPointHead.forward(BoxSineEmbedding.embed(boxes, dModel));
            NDArray tokens = NDArrays.concat(new NDList(presence, queries), 1);
            // The presence token has no box: zero position, zero attention bias.
            NDArray tokenPos = NDArrays.concat(new NDList(manager.zeros(new Shape(batch, 1, dModel)), queryPos), 1);
            NDArray imageBias = NDArrays.concat(new NDList(
                    manager.zeros(new Shape(batch, heads, 1, (long) grid * grid)),
                    positionBias.bias(boxes, grid, grid)), 2);
            NDArray updated = layer.forward(tokens, tokenPos, prompt, promptMask, memoryKeys, memory, imageBias);
            NDArray nextPresence = updated.get(new NDIndex(":, 0:1"));
            NDArray nextQueries = updated.get(new NDIndex(":, 1:"));
            NDArray hs = outputNorm.forward(nextQueries);
            NDArray refined = boxRefinement.refine(boxes, hs);
            NDArray presenceLogit = presenceHead.forward(presenceOutNorm.forward(nextPresence)).reshape(batch, 1);
            return new NDList(nextPresence, nextQueries, hs, refined, presenceLogit);
        });
    }
}
