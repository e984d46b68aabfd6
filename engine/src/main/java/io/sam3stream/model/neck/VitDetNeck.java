package io.sam3stream.model.neck;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import io.sam3stream.model.nn.ComputeOptions;
import io.sam3stream.model.nn.GraphWeights;
import io.sam3stream.model.nn.ImageGraphs;
import io.sam3stream.model.nn.Params;
import io.sam3stream.model.nn.Precision;
import io.sam3stream.model.nn.StageSink;
import java.util.ArrayList;
import java.util.List;

/**
 * The simple-FPN neck after the ViT (upstream {@code Sam3DualViTDetNeck} without its SAM2 twin; docs/MODEL.md §4): one
 * branch per scale turns the trunk output into a d-channel map, and each map gets its sine position encoding.
 *
 * <p>Stages emitted: {@code neck.fpn{j}} and {@code neck.pos{j}}, (B, d, H_j, W_j), for every computed level j
 * ({@code neck.pos{j}} of the levels other than 1× only for an active sink).
 *
 * <p>The branches run as one compiled graph ({@link ImageGraphs#neck}) when {@link ComputeOptions#moduleGraphs} is
 * on; its levels are channels-last, the op-by-op form's are not (the values are the same to float rounding).
 */
public final class VitDetNeck {

    private final List<NeckBranch> branches;
    /** The branches' scales, by ordinal, for the graph. */
    private final long[] scales;
    private final GraphWeights graph;
    private final SinePositionEncoding position;

    private VitDetNeck(List<NeckBranch> branches, long[] scales, GraphWeights graph, SinePositionEncoding position) {
        this.branches = branches;
        this.scales = scales;
        this.graph = graph;
        this.position = position;
    }

    /**
     * Loads {@code convs.{j}} for the requested levels.
     *
     * @param visionBackbone the parameters under {@code backbone.vision_backbone}
     * @param dModel         output channels of every level and of the position encodings
     * @param levels         {@link NeckLevels#USED} to serve, {@link NeckLevels#ALL} to reproduce every upstream output
     */
    public static VitDetNeck load(Params visionBackbone, int dModel, NeckLevels levels) {
        // float32 in every precision: with its convolutions in bfloat16 (AMX) the tiny golden's p2.seg.pred_masks
        // moved by 4.73e-2 against its bfloat16 bound of 4.6e-2
        Params neck = visionBackbone.withPrecision(Precision.FP32);
        List<NeckBranch> branches = new ArrayList<>();
        GraphWeights.Builder graph = GraphWeights.builder();
        for (NeckScale scale : levels.scales()) {
            branches.add(scale.load(neck.sub("convs." + scale.ordinal()), graph));
        }
        long[] scales = levels.scales().stream().mapToLong(NeckScale::ordinal).toArray();
        return new VitDetNeck(List.copyOf(branches), scales, graph.build(neck.manager()),
                new SinePositionEncoding(dModel));
    }

    /**
     * @param trunkOut the ViT output (B, C, G, G); left open for the caller
     * @param sink     receives the neck's stages; the finer levels' position encodings are computed only for a
     *                 sink that is {@link StageSink#active() active}, since nothing downstream reads them
     * @return the levels and the 1× level's encoding, allocated in the trunk output's manager
     */
    public ImageFeatures forward(NDArray trunkOut, StageSink sink) {
        NDList graphLevels = ComputeOptions.current().moduleGraphs()
                ? ImageGraphs.neck(trunkOut, graph, scales)
                : null;
        List<NDArray> fpn = new ArrayList<>();
        NDArray visionPos = null;
        for (int j = 0; j < branches.size(); j++) {
            NDArray level = graphLevels != null ? graphLevels.get(j) : branches.get(j).forward(trunkOut);
            sink.record("neck.fpn" + j, level);
            fpn.add(level);
            if (j == NeckScale.ONE.ordinal()) {
                visionPos = position.forward(level);
                sink.record("neck.pos" + j, visionPos);
            } else if (sink.active()) {
                try (NDArray encoding = position.forward(level)) {
                    sink.record("neck.pos" + j, encoding);
                }
            }
        }
        return new ImageFeatures(fpn, visionPos);
    }
}
