package io.sam3stream.model.vision;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import io.sam3stream.model.config.VitConfig;
import io.sam3stream.model.nn.ComputeOptions;
import io.sam3stream.model.nn.GraphWeights;
import io.sam3stream.model.nn.ImageGraphs;
import io.sam3stream.model.nn.LayerNorm;
import io.sam3stream.model.nn.Params;
import io.sam3stream.model.nn.Scopes;
import io.sam3stream.model.nn.StageSink;
import java.util.ArrayList;
import java.util.List;

/**
 * The SAM3 image trunk (upstream {@code vitdet.ViT} as built by {@code _create_vit_backbone}; docs/MODEL.md §3): patch
 * embedding, tiled absolute position embedding, {@code ln_pre}, then windowed and global RoPE blocks. There is no
 * cls token at run time and no final norm.
 *
 * <p>Stages emitted: {@code vit.patch_embed}, {@code vit.abs_pos}, {@code vit.ln_pre}, {@code vit.block{i}} (all
 * (B, G, G, C)) and {@code vit.out} (B, C, G, G).
 *
 * <p>A float32 trunk also runs as one compiled graph ({@link ImageGraphs#visionTrunk}) when
 * {@link ComputeOptions#moduleGraphs} is on; the bfloat16 forms are already one call per attention and per MLP.
 */
public final class VisionTrunk implements Backbone {

    private final VitConfig config;
    private final PatchEmbed patchEmbed;
    /** (1, G, G, C), precomputed once. */
    private final NDArray absPos;
    private final LayerNorm lnPre;
    private final List<VitBlock> blocks;
    /** The same parameters for {@link ImageGraphs#visionTrunk}; null for a bfloat16 trunk. */
    private final GraphWeights graph;

    private VisionTrunk(VitConfig config, PatchEmbed patchEmbed, NDArray absPos, LayerNorm lnPre,
            List<VitBlock> blocks, AxialRope windowRope, AxialRope globalRope, Params trunk) {
        this.config = config;
        this.patchEmbed = patchEmbed;
        this.absPos = absPos;
        this.lnPre = lnPre;
        this.blocks = blocks;
        this.graph = trunk.precision().isFp32() ? graphWeights(windowRope, globalRope, trunk.manager()) : null;
    }

    private GraphWeights graphWeights(AxialRope windowRope, AxialRope globalRope, NDManager owner) {
        GraphWeights.Builder graph = GraphWeights.builder()
                .put("patch_embed.proj.weight", patchEmbed.weight())
                .put("abs_pos", absPos)
                .put("rope.window", windowRope.complexTable())
                .put("rope.global", globalRope.complexTable());
        lnPre.addTo(graph, "ln_pre");
        for (int i = 0; i < blocks.size(); i++) {
            blocks.get(i).addTo(graph, "blocks." + i);
        }
        return graph.build(owner);
    }

    /**
     * Loads the trunk from the parameters under {@code backbone.vision_backbone.trunk}.
     *
     * <p>Upstream returns the state after the last listed global block (the last block in every released
     * configuration); blocks after it cannot change the output, so they are not loaded.
     */
    public static VisionTrunk load(Params trunk, VitConfig config) {
        int[] globals = config.globalBlocks();
        if (globals.length == 0) {
            throw new IllegalArgumentException("the ViT needs at least one global attention block: " + config);
        }
        int outputBlock = globals[globals.length - 1];
        NDManager manager = trunk.manager();
        int grid = config.grid();
        int window = config.windowSize();
        AxialRope windowRope = AxialRope.create(manager, window, config.headDim(), 1f);
        // use_interp_rope: the global grid is squeezed onto the window-sized grid RoPE was trained on
        AxialRope globalRope = AxialRope.create(manager, grid, config.headDim(), (float) ((double) window / grid));
        List<VitBlock> blocks = new ArrayList<>();
        for (int i = 0; i <= outputBlock; i++) {
            boolean global = config.isGlobal(i);
            blocks.add(VitBlock.load(trunk.sub("blocks." + i), config.numHeads(), global ? 0 : window,
                    global ? globalRope : windowRope));
        }
        NDArray posEmbed = trunk.get("pos_embed");
        NDArray absPos = AbsolutePositionEmbedding.tiled(posEmbed, config.pretrainGrid(), grid);
        posEmbed.close();
        return new VisionTrunk(config, PatchEmbed.load(trunk), absPos, LayerNorm.load(trunk, "ln_pre"),
                List.copyOf(blocks), windowRope, globalRope, trunk);
    }

    /** Each block takes and returns the (B, G, G, C) map; windowed blocks cut it into windows and back. */
    private NDArray runBlockByBlock(NDArray input, StageSink sink) {
        NDArray x = input;
        for (int i = 0; i < blocks.size(); i++) {
            NDArray next = blocks.get(i).forward(x);
            x.close();
            x = next;
            sink.record("vit.block" + i, x);
        }
        return x;
    }

    /**
     * The map is cut into windows once before each run of consecutive windowed blocks and stitched back once after
     * it (before a global block, or at the end), instead of in every block.
     */
    private NDArray runInWindowOrder(NDArray input, StageSink sink) {
        long[] map = input.getShape().getShape();
        int window = config.windowSize();
        long windowTokens = (long) window * window;
        NDArray x = input;
        boolean windowed = false;
        for (int i = 0; i < blocks.size(); i++) {
            VitBlock block = blocks.get(i);
            NDArray next;
            if (block.window() > 0) {
                if (!windowed) {
                    NDArray windows = WindowPartition.partition(x, window);
                    x.close();
                    x = windows.reshape(-1, windowTokens, map[3]);
                    windows.close();
                    windowed = true;
                }
                next = block.forwardSequences(x);
            } else {
                if (windowed) {
                    NDArray stitched = stitch(x, window, map);
                    x.close();
                    x = stitched;
                    windowed = false;
                }
                next = block.forward(x);
            }
            x.close();
            x = next;
            if (sink.active()) {
                if (windowed) {
                    try (NDArray stitched = stitch(x, window, map)) {
                        sink.record("vit.block" + i, stitched);
                    }
                } else {
                    sink.record("vit.block" + i, x);
                }
            }
        }
        if (windowed) {
            NDArray stitched = stitch(x, window, map);
            x.close();
            x = stitched;
        }
        return x;
    }

    /** (B · windows, window², C) back to the (B, G, G, C) map. */
    private static NDArray stitch(NDArray windows, int window, long[] map) {
        return Scopes.keep(() -> WindowPartition.unpartition(
                windows.reshape(-1, window, window, map[3]), window, map[1], map[2]));
    }

    /**
     * @param image (B, 3, R, R) preprocessed pixels, R = img_size
     * @param sink  receives the trunk's stages
     * @return (B, C, G, G), allocated in the image's manager
     */
    @Override
    public NDArray forward(NDArray image, StageSink sink) {
        long[] s = image.getShape().getShape();
        if (s.length != 4 || s[1] != 3 || s[2] != config.imgSize() || s[3] != config.imgSize()) {
            throw new IllegalArgumentException("the ViT takes (B, 3, " + config.imgSize() + ", " + config.imgSize()
                    + ") images, got " + image.getShape());
        }
        if (graph != null && ComputeOptions.current().moduleGraphs()) {
            return forwardGraph(image, sink);
        }
        NDArray patches = patchEmbed.forward(image);
        sink.record("vit.patch_embed", patches);
        sink.record("vit.abs_pos", absPos);
        NDArray positioned = patches.add(absPos);
        patches.close();
        NDArray x = lnPre.forward(positioned);
        positioned.close();
        sink.record("vit.ln_pre", x);
        x = ComputeOptions.current().windowLayoutReuse() ? runInWindowOrder(x, sink) : runBlockByBlock(x, sink);
        NDArray out = x.transpose(0, 3, 1, 2);
        x.close();
        sink.record("vit.out", out);
        return out;
    }

    /** {@link #forward} as one call of the compiled graph. */
    private NDArray forwardGraph(NDArray image, StageSink sink) {
        boolean[] global = new boolean[blocks.size()];
        for (int i = 0; i < global.length; i++) {
            global[i] = blocks.get(i).window() == 0;
        }
        NDList out = ImageGraphs.visionTrunk(image, graph, config.numHeads(), config.windowSize(), global,
                sink.active());
        NDArray trunkOut = out.get(0);
        if (sink.active()) {
            sink.record("vit.patch_embed", out.get(1));
            sink.record("vit.abs_pos", absPos);
            sink.record("vit.ln_pre", out.get(2));
            for (int i = 0; i < blocks.size(); i++) {
                sink.record("vit.block" + i, out.get(3 + i));
            }
            sink.record("vit.out", trunkOut);
        }
        for (int i = 1; i < out.size(); i++) {
            out.get(i).close();
        }
        return trunkOut;
    }
}
