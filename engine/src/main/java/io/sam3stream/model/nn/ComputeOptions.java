package io.sam3stream.model.nn;

import java.util.ArrayList;
import java.util.List;

/**
 * Which of the model's performance measures are in force on the calling thread. Every measure computes the same
 * function as the plain op-by-op form (within float rounding, checked by the golden tests in both modes); switching
 * them off gives the control of {@code sam3 bench}, the same forward on the same weights in the same process, so
 * that a speed-up is measured side by side and the machine's drift cancels.
 *
 * @param fusedAttention     softmax(q·kᵀ/√d + bias)·v by libtorch's fused scaled-dot-product attention, which never
 *                           writes the logits to memory, instead of matmul → softmax → matmul in query chunks
 * @param fusedRope          the ViT's RoPE as one complex multiply over q and k together (upstream's own
 *                           formulation) straight on the packed qkv projection, instead of separate real and
 *                           imaginary products per tensor
 * @param windowLayoutReuse  consecutive windowed ViT blocks keep the tokens in window order: the map is partitioned
 *                           once before a run of windowed blocks and stitched back once after it, instead of in every
 *                           block (norms, MLPs and residuals are per token, so the order does not matter to them)
 * @param oneDnnLinear       linear layers through oneDNN, with the GELU that follows some of them fused into the
 *                           product's epilogue, instead of libtorch's default BLAS (MKL) and a separate GELU pass;
 *                           on AVX2 machines oneDNN's kernels are the faster of the two
 * @param moduleGraphs       the prompt side's modules (text encoder, geometry encoder layers, fusion encoder,
 *                           decoder, scoring, segmentation head, detection post-processing) and the image side's
 *                           float32 ViT trunk and neck each run as one compiled TorchScript graph
 *                           ({@link PromptGraphs}, {@link ImageGraphs}) instead of operator by operator from Java
 * @param singleThreadSmallModules the modules made of many small operators (text encoder, geometry encoder,
 *                           decoder, scoring) run on one intra-op thread where libgomp's threads spin at a barrier,
 *                           and on every thread where they sleep ({@link SmallOperatorThreads}); the others always
 *                           on all of them
 */
public record ComputeOptions(boolean fusedAttention, boolean fusedRope, boolean windowLayoutReuse,
        boolean oneDnnLinear, boolean moduleGraphs, boolean singleThreadSmallModules) {

    /** Every measure on: what the engine serves with. */
    public static final ComputeOptions OPTIMIZED = new ComputeOptions(true, true, true, true, true, true);

    /**
     * Every measure off: plain op-by-op attention, no fusion, no layout reuse, no graphs, every module on every
     * thread (the benchmark's control).
     */
    public static final ComputeOptions PLAIN = new ComputeOptions(false, false, false, false, false, false);

    private static final ThreadLocal<ComputeOptions> CURRENT = ThreadLocal.withInitial(() -> OPTIMIZED);

    /** The options in force on this thread ({@link #OPTIMIZED} unless a {@link #activate} scope says otherwise). */
    public static ComputeOptions current() {
        return CURRENT.get();
    }

    /**
     * Puts these options in force on the calling thread until the returned scope is closed, which restores the
     * previous ones: {@code try (var plain = ComputeOptions.PLAIN.activate()) { model.encodeImage(...); }}.
     */
    public Scope activate() {
        ComputeOptions previous = CURRENT.get();
        CURRENT.set(this);
        return () -> CURRENT.set(previous);
    }

    /**
     * These options without module graphs and thread policy: every module operator by operator from Java, on every
     * intra-op thread. The control of both.
     */
    public ComputeOptions withOpByOpModules() {
        return new ComputeOptions(fusedAttention, fusedRope, windowLayoutReuse, oneDnnLinear, false, false);
    }

    /** The measures switched on, by name ("none" when all are off). */
    public String describe() {
        List<String> on = new ArrayList<>();
        if (fusedAttention) {
            on.add("fused attention");
        }
        if (fusedRope) {
            on.add("fused RoPE");
        }
        if (windowLayoutReuse) {
            on.add("window layout reuse");
        }
        if (oneDnnLinear) {
            on.add("oneDNN linear+GELU");
        }
        if (moduleGraphs) {
            on.add("module graphs");
        }
        if (singleThreadSmallModules) {
            on.add("small modules on one thread where OpenMP threads spin");
        }
        return on.isEmpty() ? "none" : String.join(", ", on);
    }

    /** Restores the options that were in force before {@link #activate}. */
    @FunctionalInterface
    public interface Scope extends AutoCloseable {
        @Override
        void close();
    }
}
