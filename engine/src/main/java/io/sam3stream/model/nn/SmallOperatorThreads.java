package io.sam3stream.model.nn;

import ai.djl.pytorch.jni.JniUtils;

/**
 * Runs a module whose operators are small on the calling thread alone. Each libtorch operator splits its work over
 * the intra-op threads and ends at a barrier; when a neighbouring process takes a core, the second thread is
 * descheduled for a scheduler slice and every barrier waits for it, so a module of thousands of small operators
 * slows down several times (the full-size decoder went from 0.5 s to 4.4 s beside a CPU-bound neighbour on two
 * cores, and on one thread it takes 1.0 s in the same conditions; {@code docs/PERFORMANCE.md}, "Prompt path").
 * Modules dominated by large products (the ViT, the fusion encoder, the segmentation head) keep every thread.
 *
 * <p>The thread count is libtorch's per-thread setting (OpenMP's and MKL's thread-local values), so this changes
 * nothing for other threads of the process. Active only while {@link ComputeOptions#singleThreadSmallModules} is on.
 */
public final class SmallOperatorThreads {

    private SmallOperatorThreads() {}

    /**
     * Limits the calling thread to one intra-op thread until the returned scope is closed, which restores the
     * previous count: {@code try (var one = SmallOperatorThreads.enter()) { decoder.forward(...); }}.
     */
    public static ComputeOptions.Scope enter() {
        if (!ComputeOptions.current().singleThreadSmallModules()) {
            return () -> {};
        }
        int previous = JniUtils.getNumThreads();
        if (previous == 1) {
            return () -> {};
        }
        JniUtils.setNumThreads(1);
        return () -> JniUtils.setNumThreads(previous);
    }
}
