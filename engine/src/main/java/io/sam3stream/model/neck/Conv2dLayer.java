package io.sam3stream.model.neck;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.convolutional.Conv2d;
import io.sam3stream.model.nn.Params;

/**
 * {@code nn.Conv2d} with stride 1, symmetric zero padding and a bias.
 *
 * @param weight  (out, in, k, k)
 * @param bias    (out)
 * @param padding zero padding on every side
 */
public record Conv2dLayer(NDArray weight, NDArray bias, int padding) implements FeatureMapLayer {

    /** Loads {@code name.weight} and {@code name.bias}. */
    public static Conv2dLayer load(Params p, String name, int padding) {
        Params sub = p.sub(name);
        return new Conv2dLayer(sub.get("weight"), sub.get("bias"), padding);
    }

    @Override
    public NDArray forward(NDArray map) {
        return Conv2d.conv2d(map, weight, bias, new Shape(1, 1), new Shape(padding, padding), new Shape(1, 1), 1)
                .singletonOrThrow();
    }
}
