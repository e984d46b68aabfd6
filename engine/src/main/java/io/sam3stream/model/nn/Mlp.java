package io.sam3stream.model.nn;

import ai.djl.ndarray.NDArray;
import ai.djl.nn.Activation;
import java.util.ArrayList;
import java.util.List;

/**
 * Upstream's {@code MLP} ({@code sam3/model/model_misc.py}): Linear layers named {@code layers.0..n-1} with ReLU
 * between them and nothing after the last.
 */
public record Mlp(List<Linear> layers) {

    /** Loads {@code name.layers.0 .. name.layers.(count-1)}. */
    public static Mlp load(Params p, String name, int count) {
        List<Linear> layers = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            layers.add(Linear.load(p, name + ".layers." + i));
        }
        return new Mlp(List.copyOf(layers));
    }

    /** Adds {@code name.layers.i.*} to a graph's parameters. */
    public void addTo(GraphWeights.Builder graph, String name) {
        for (int i = 0; i < layers.size(); i++) {
            layers.get(i).addTo(graph, name + ".layers." + i);
        }
    }

    /** Applies the layers; the hidden activations are freed before returning. */
    public NDArray forward(NDArray input) {
        return Scopes.keep(() -> {
            NDArray x = input;
            for (int i = 0; i < layers.size(); i++) {
                x = layers.get(i).forward(x);
                if (i < layers.size() - 1) {
                    x = Activation.relu(x);
                }
            }
            return x;
        });
    }
}
