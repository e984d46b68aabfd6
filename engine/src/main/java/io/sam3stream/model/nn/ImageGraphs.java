package io.sam3stream.model.nn;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;

/**
 * The image side's float32 ViT trunk as a compiled graph (source: {@code ImageGraphs.torchscript} beside this
 * class), the counterpart of {@link PromptGraphs}: one TorchScript call that reads the trunk's parameters from its
 * {@link GraphWeights}. At full size the trunk's operators are large and the call count does not matter; on a small
 * model (the tiny checkpoint, 144 tokens) its few hundred operators cost a measurable share in dispatch. The neck
 * has no graph: its time is in its convolutions, and one call made it no faster. The methods call the operators the Java forms call with
 * every {@link ComputeOptions} measure on (oneDNN linear layers with the GELU fused, fused RoPE and attention, the
 * window layout kept across consecutive windowed blocks), in the same order; those forms stay the readable
 * reference and the path taken when {@link ComputeOptions#moduleGraphs} is off.
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
}
