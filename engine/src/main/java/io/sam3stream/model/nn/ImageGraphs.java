package io.sam3stream.model.nn;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;

/**
 * The image side's float32 modules as compiled graphs (source: {@code ImageGraphs.torchscript} beside this class),
 * the counterpart of {@link PromptGraphs}: the ViT trunk and the neck each run as one TorchScript call that reads
 * the module's parameters from its {@link GraphWeights}. On a small model (the tiny checkpoint, 144 tokens) the
 * trunk's few hundred operators cost a measurable share in dispatch; the neck's graph keeps its maps channels-last,
 * which DJL gives Java no way to ask for, and is faster so at every size. The methods call the operators the Java
 * forms call with every {@link ComputeOptions} measure on (oneDNN linear layers with the GELU fused, fused RoPE and
 * attention, the window layout kept across consecutive windowed blocks), in the same order; those forms stay the
 * readable reference and the path taken when {@link ComputeOptions#moduleGraphs} is off.
 *
 * <p>Results are allocated in the manager of the first array argument and must only be read.
 */
public final class ImageGraphs {

    private ImageGraphs() {}

    private static final class Module {
        static final ScriptModule INSTANCE = ScriptModule.compile("ImageGraphs");
    }

    /**
     * The ViT trunk in float32: patch embedding, absolute positions, {@code ln_pre} and every block.
     *
     * @param image        (B, 3, R, R) preprocessed pixels
     * @param weights      {@code patch_embed.proj.weight}, {@code abs_pos} (1, G, G, C), {@code ln_pre.*},
     *                     {@code rope.window} and {@code rope.global} (complex RoPE tables) and {@code blocks.{i}.*}
     * @param globalBlocks per block, whether it attends globally (else in windows of {@code window²} tokens)
     * @param record       also return the stages the golden comparison reads
     * @return the trunk output (B, C, G, G), then, when recording, the patch embedding and the {@code ln_pre} output
     *         (B, G, G, C) and every block's output map (B, G, G, C)
     */
    public static NDList visionTrunk(NDArray image, GraphWeights weights, int heads, int window,
            boolean[] globalBlocks, boolean record) {
        return Module.INSTANCE.runTensors("vision_trunk", image.getManager(), new ScriptCall().tensor(image)
                .weights(weights).integer(heads).integer(window).flags(globalBlocks).flag(record));
    }

    /**
     * The neck's branches on the trunk output, every map channels-last.
     *
     * @param trunkOut (B, C, G, G) in any layout; channels-last, as the trunks produce it (a permuted view of their
     *                 tokens), saves a copy
     * @param weights  the branches' parameters under {@code convs.{scale}}: {@code dconv_2x2*.matrix} (in, 4·out)
     *                 and {@code .bias} (1, out, 1, 1) for the transposed convolutions, {@code conv_1x1.*} and
     *                 {@code conv_3x3.*}
     * @param scales   the branches to run, in order, each by scale ordinal: 0 = 4× (two transposed convolutions
     *                 with a GELU between), 1 = 2× (one), 2 = 1× (none), 3 = 0.5× (2×2 max pooling)
     * @return each branch's level (B, d, ·, ·), channels-last
     */
    public static NDList neck(NDArray trunkOut, GraphWeights weights, long[] scales) {
        return Module.INSTANCE.runTensors("neck", trunkOut.getManager(), new ScriptCall().tensor(trunkOut)
                .weights(weights).integers(scales));
    }
}
