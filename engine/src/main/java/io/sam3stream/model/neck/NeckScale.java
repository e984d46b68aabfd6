package io.sam3stream.model.neck;

import ai.djl.ndarray.types.Shape;
import ai.djl.nn.Activation;
import ai.djl.nn.pooling.Pool;
import io.sam3stream.model.nn.Conv2d;
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

    /** Loads the branch stored under {@code convs.{ordinal}}. */
    NeckBranch load(Params branch) {
        List<FeatureMapLayer> layers = new ArrayList<>();
        switch (this) {
            case FOUR -> {
                layers.add(TransposedConv2x2.load(branch, "dconv_2x2_0"));
                layers.add(Activation::gelu);
                layers.add(TransposedConv2x2.load(branch, "dconv_2x2_1"));
            }
            case TWO -> layers.add(TransposedConv2x2.load(branch, "dconv_2x2"));
            case ONE -> { }
            case HALF -> layers.add(map -> Pool.maxPool2d(map, new Shape(2, 2), new Shape(2, 2), new Shape(0, 0),
                    false));
            default -> throw new IllegalStateException(name());
        }
        layers.add(Conv2d.load(branch, "conv_1x1")::forward);
        layers.add(Conv2d.load(branch, "conv_3x3")::forward);
        return new NeckBranch(List.copyOf(layers));
    }
}
