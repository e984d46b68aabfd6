package io.sam3stream.model.neck;

import ai.djl.ndarray.types.Shape;
import ai.djl.nn.Activation;
import ai.djl.nn.pooling.Pool;
import io.sam3stream.model.nn.Conv2d;
import io.sam3stream.model.nn.GraphWeights;
import io.sam3stream.model.nn.Params;
import java.util.ArrayList;
import java.util.List;

/**
 * The four scale factors of the simple-FPN neck, in upstream order ({@code convs.{ordinal}}), and the layers each
 * branch applies before the shared {@code conv_1x1 → conv_3x3} projection (docs/MODEL.md §4.1).
 */
public enum NeckScale {
    /** 4×: {@code dconv_2x2_0} → GELU → {@code dconv_2x2_1}. */
    FOUR,
    /** 2×: {@code dconv_2x2}. */
    TWO,
    /** 1×: nothing; this level is upstream's {@code vision_features}. */
    ONE,
    /** 0.5×: {@code maxpool_2x2}; computed upstream but discarded by {@code SAM3VLBackbone(scalp=1)}. */
    HALF;

    /**
     * Loads the branch stored under {@code convs.{ordinal}} and adds its parameters under the same names to a
     * graph's ({@link io.sam3stream.model.nn.ImageGraphs#neck}).
     */
    NeckBranch load(Params branch, GraphWeights.Builder graph) {
        String name = "convs." + ordinal();
        List<FeatureMapLayer> layers = new ArrayList<>();
        switch (this) {
            case FOUR -> {
                layers.add(transposedConv(branch, "dconv_2x2_0", graph, name));
                layers.add(Activation::gelu);
                layers.add(transposedConv(branch, "dconv_2x2_1", graph, name));
            }
            case TWO -> layers.add(transposedConv(branch, "dconv_2x2", graph, name));
            case ONE -> { }
            case HALF -> layers.add(map -> Pool.maxPool2d(map, new Shape(2, 2), new Shape(2, 2), new Shape(0, 0),
                    false));
            default -> throw new IllegalStateException(name());
        }
        for (String projection : List.of("conv_1x1", "conv_3x3")) {
            Conv2d conv = Conv2d.load(branch, projection);
            conv.addTo(graph, name + "." + projection);
            layers.add(conv::forward);
        }
        return new NeckBranch(List.copyOf(layers));
    }

    private static TransposedConv2x2 transposedConv(Params branch, String layer, GraphWeights.Builder graph,
            String name) {
        TransposedConv2x2 conv = TransposedConv2x2.load(branch, layer);
        conv.addTo(graph, name + "." + layer);
        return conv;
    }
}
