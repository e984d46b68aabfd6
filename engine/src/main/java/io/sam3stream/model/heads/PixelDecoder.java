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
 *
 * <p>The convolution is linear, so conv(up(r) + level) = conv′(up(r)) + conv(level), where conv′ is the
 * convolution without its bias. The level's part depends on the image alone: {@link #levelTerms} computes it once
 * per image, and {@link #forward} adds it to the running map's part for every prompt. Only the coarsest map (the
 * prompt-attended memory) differs between prompts.
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

    /**
     * Adds {@code name.conv_layers.i}, {@code name.norms.i} of the stages in use to a graph's parameters, and as
     * {@code name.conv_layers.i.upsampled_weight} each convolution's form for a 2×-upsampled input
     * ({@link Conv2d#upsampledKernel}), which the graph applies to the running map without upsampling it.
     */
    void addTo(GraphWeights.Builder graph, String name) {
        for (int i = 0; i < convs.size(); i++) {
            convs.get(i).addTo(graph, name + ".conv_layers." + i);
            graph.put(name + ".conv_layers." + i + ".upsampled_weight", convs.get(i).upsampledKernel());
            norms.get(i).addTo(graph, name + ".norms." + i);
        }
    }

    /**
     * The image's part of every stage: each finer level convolved by the stage that reads it, bias included. A
     * bfloat16 convolution's term stays bfloat16 ({@link Conv2d#forwardInLayerFormat}): the values it rounded to
     * anyway, held for every prompt on the image in half the memory (53 MB less per cached image at full size).
     *
     * @param finerLevels the pyramid levels finer than the coarsest, finest first, each side twice the next one's
     * @return one term per level, in the same order and shapes, float32 or in its convolution's bfloat16; only to
     *         be added to float32 maps; the caller closes them
     */
    public List<NDArray> levelTerms(List<NDArray> finerLevels) {
        checkLevelCount(finerLevels);
        List<NDArray> terms = new ArrayList<>();
        for (int j = 0; j < finerLevels.size(); j++) {
            terms.add(convs.get(stageReading(j, finerLevels.size())).forwardInLayerFormat(finerLevels.get(j)));
        }
        return terms;
    }

    /**
     * @param coarsest   the coarsest map (B, C, H, W), the one that differs per prompt
     * @param levelTerms {@link #levelTerms} of the finer levels, finest first; they may have batch 1 and broadcast
     *                   against the coarsest map's batch
     * @return the finest-resolution pixel embedding (B, C, H₀, W₀)
     */
    public NDArray forward(NDArray coarsest, List<NDArray> levelTerms) {
        checkLevelCount(levelTerms);
        NDArray running = coarsest;
        for (int stage = 0; stage < convs.size(); stage++) {
            NDArray coarser = running;
            running = stage(stage, levelTerms.get(levelTerms.size() - 1 - stage), coarser);
            if (stage > 0) {
                coarser.close();
            }
        }
        return running;
    }

    /** The stage that reads finer level j of {@code count} (finest first): the coarsest of them is read first. */
    private static int stageReading(int j, int count) {
        return count - 1 - j;
    }

    private void checkLevelCount(List<NDArray> levels) {
        if (levels.size() != convs.size()) {
            throw new IllegalArgumentException("pixel decoder built for " + convs.size() + " finer levels, given "
                    + levels.size());
        }
    }

    /** One upsampling stage; its full-resolution temporaries are freed as soon as the next one exists. */
    private NDArray stage(int stage, NDArray levelTerm, NDArray coarser) {
        return Scopes.keep(() -> {
            NDArray convolved;
            try (NDArray upsampled = upsampleNearest2x(coarser, levelTerm)) {
                convolved = convs.get(stage).forwardWithoutBias(upsampled);
            }
            NDArray merged;
            try (convolved) {
                merged = convolved.add(levelTerm);
            }
            try (merged; NDArray normalised = norms.get(stage).forward(merged)) {
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
