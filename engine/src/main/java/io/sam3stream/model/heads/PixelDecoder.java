package io.sam3stream.model.heads;

import ai.djl.ndarray.NDArray;
import ai.djl.nn.Activation;
import io.sam3stream.model.nn.Conv2d;
import io.sam3stream.model.nn.GraphWeights;
import io.sam3stream.model.nn.Params;
import io.sam3stream.model.nn.Scopes;
import java.util.ArrayList;
import java.util.List;

/**
 * Upstream's {@code PixelDecoder} (docs/MODEL.md §10.2): walks the feature pyramid from coarse to fine; at each finer
 * level the running map is upsampled 2× by nearest neighbour, added to the level, and passed through a 3×3 conv,
 * GroupNorm(8) and ReLU. With n levels only stages 0..n−2 exist in the computation; the checkpoint's last
 * {@code conv_layers}/{@code norms} entry is never used and not loaded.
 */
public final class PixelDecoder {

    /** Upstream builds every norm as {@code nn.GroupNorm(8, hidden_dim)}. */
    private static final int GROUPS = 8;

    private final List<Conv2d> convs;
    private final List<GroupNorm> norms;

    private PixelDecoder(List<Conv2d> convs, List<GroupNorm> norms) {
        this.convs = List.copyOf(convs);
        this.norms = List.copyOf(norms);
    }

    /**
     * Loads {@code conv_layers.i} and {@code norms.i} for the stages a pyramid of {@code levels} levels uses.
     *
     * @param levels pyramid levels the decoder will be given (3 in SAM3)
     */
    public static PixelDecoder load(Params pixelDecoder, int levels) {
        if (levels < 2) {
            throw new IllegalArgumentException("a pixel decoder needs at least 2 levels, got " + levels);
        }
        List<Conv2d> convs = new ArrayList<>();
        List<GroupNorm> norms = new ArrayList<>();
        for (int i = 0; i < levels - 1; i++) {
            convs.add(Conv2d.load(pixelDecoder, "conv_layers." + i));
            norms.add(GroupNorm.load(pixelDecoder, "norms." + i, GROUPS));
        }
        return new PixelDecoder(convs, norms);
    }

    /** Adds {@code name.conv_layers.i} and {@code name.norms.i} of the stages in use to a graph's parameters. */
    void addTo(GraphWeights.Builder graph, String name) {
        for (int i = 0; i < convs.size(); i++) {
            convs.get(i).addTo(graph, name + ".conv_layers." + i);
            norms.get(i).addTo(graph, name + ".norms." + i);
        }
    }

    /**
     * @param levels feature maps from finest to coarsest, each side half the previous one, all with the same
     *               channel count; the finer levels may have batch 1 and broadcast against the coarsest one's batch
     * @return the finest-resolution pixel embedding (B, C, H₀, W₀)
     */
    public NDArray forward(List<NDArray> levels) {
        if (levels.size() != convs.size() + 1) {
            throw new IllegalArgumentException("pixel decoder built for " + (convs.size() + 1) + " levels, given "
                    + levels.size());
        }
        NDArray running = levels.get(levels.size() - 1);
        for (int stage = 0; stage < convs.size(); stage++) {
            NDArray coarser = running;
            NDArray finer = levels.get(levels.size() - 2 - stage);
            running = stage(stage, finer, coarser);
            if (stage > 0) {
                coarser.close();
            }
        }
        return running;
    }

    /** One upsampling stage; its full-resolution temporaries are freed as soon as the next one exists. */
    private NDArray stage(int stage, NDArray finer, NDArray coarser) {
        return Scopes.keep(() -> {
            NDArray merged;
            try (NDArray upsampled = upsampleNearest2x(coarser, finer)) {
                merged = finer.add(upsampled);
            }
            NDArray convolved;
            try (merged) {
                convolved = convs.get(stage).forward(merged);
            }
            try (convolved; NDArray normalised = norms.get(stage).forward(convolved)) {
                return Activation.relu(normalised);
            }
        });
    }

    /** Nearest-neighbour 2× upsampling: output pixel (i, j) copies input (⌊i/2⌋, ⌊j/2⌋). */
    private static NDArray upsampleNearest2x(NDArray coarse, NDArray finer) {
        long[] c = coarse.getShape().getShape();
        long[] f = finer.getShape().getShape();
        if (f[2] != 2 * c[2] || f[3] != 2 * c[3]) {
            throw new IllegalArgumentException("pyramid levels must halve: " + finer.getShape() + " above "
                    + coarse.getShape());
        }
        try (NDArray rows = coarse.repeat(2, 2)) {
            return rows.repeat(3, 2);
        }
    }
}
