package io.sam3stream.model.heads;

import ai.djl.ndarray.NDArray;
import io.sam3stream.model.nn.GraphWeights;
import io.sam3stream.model.nn.Params;
import io.sam3stream.model.nn.Scopes;

/**
 * {@code nn.GroupNorm(groups, C)} on NCHW: the channels are split into {@code groups} consecutive groups, each
 * (sample, group) is normalised by its own mean and biased variance over channels and pixels, then a per-channel
 * affine transform is applied. DJL has no group-norm operator, so it is composed here.
 *
 * @param groups number of groups; must divide the channel count
 * @param weight per-channel scale (C)
 * @param bias   per-channel shift (C)
 * @param eps    added to the variance (1e-5 in the pixel decoder)
 */
public record GroupNorm(int groups, NDArray weight, NDArray bias, float eps) {

    /** PyTorch's default eps, which the pixel decoder keeps. */
    public static final float DEFAULT_EPS = 1e-5f;

    /** Loads {@code name.weight} and {@code name.bias} with eps 1e-5. */
    public static GroupNorm load(Params p, String name, int groups) {
        Params sub = p.sub(name);
        return new GroupNorm(groups, sub.get("weight"), sub.get("bias"), DEFAULT_EPS);
    }

    /** Adds {@code name.weight} and {@code name.bias} to a graph's parameters. */
    void addTo(GraphWeights.Builder graph, String name) {
        graph.put(name + ".weight", weight);
        graph.put(name + ".bias", bias);
    }

    /** @param x (N, C, H, W) with C a multiple of {@link #groups()} */
    public NDArray forward(NDArray x) {
        long[] s = x.getShape().getShape();
        if (s.length != 4 || s[1] % groups != 0) {
            throw new IllegalArgumentException("GroupNorm(" + groups + ") needs NCHW with C divisible by "
                    + groups + ", got " + x.getShape());
        }
        return Scopes.keep(() -> {
            NDArray grouped = x.reshape(s[0], groups, -1);
            NDArray centred = grouped.sub(grouped.mean(new int[] {2}, true));
            NDArray variance;
            try (NDArray squares = centred.square()) {
                variance = squares.mean(new int[] {2}, true);
            }
            // In place on the one full-size temporary: at 288² a map is 85 MB per prompt.
            centred.divi(variance.add(eps).sqrt());
            return centred.reshape(s).muli(weight.reshape(1, s[1], 1, 1)).addi(bias.reshape(1, s[1], 1, 1));
        });
    }
}
