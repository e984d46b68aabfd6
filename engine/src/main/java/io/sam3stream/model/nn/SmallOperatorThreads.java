package io.sam3stream.model.nn;

import ai.djl.pytorch.jni.JniUtils;
import io.sam3stream.config.Knob;
import io.sam3stream.config.Settings;

/**
 * Runs a module whose operators are small on the calling thread alone. Each libtorch operator splits its work over
 * the intra-op threads and ends at a barrier; when a neighbouring process takes a core, the second thread is
 * descheduled for a scheduler slice and every barrier waits for it, so a module of thousands of small operators
 * slows down several times (the full-size decoder went from 0.5 s to 4.4 s beside a CPU-bound neighbour on two
 * cores, and on one thread it takes 1.0 s in the same conditions; {@code docs/PERFORMANCE.md}, "Prompt path").
 * Modules dominated by large products (the ViT, the fusion encoder, the segmentation head) keep every thread.
 *
 * <p>That slowdown comes from libgomp's threads spinning at each barrier (its default wait policy), which keeps
 * the core that the descheduled thread needs. Where they sleep at once instead ({@code OMP_WAIT_POLICY=PASSIVE},
 * which the launcher and the worker image set), those modules were faster on every thread than on one, on idle
 * cores and beside the neighbour alike (the full-size decoder 0.15-0.20 s against 0.23-0.24 s idle and 0.24-0.27 s
 * against 0.26-0.41 s beside it, bf16 on an AMX Xeon), so then this keeps every thread.
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
        return enter(ThreadsSleep.AT_ONCE);
    }

    /** libgomp's wait policy, as this process was started with (libgomp reads it once, when libtorch loads). */
    private static final class ThreadsSleep {
        static final boolean AT_ONCE =
                "PASSIVE".equalsIgnoreCase(Settings.fromEnvironment().get(Knob.OMP_WAIT_POLICY).trim());
    }

    /** {@link #enter()} for a process whose OpenMP threads do or do not sleep at once at a barrier. */
    static ComputeOptions.Scope enter(boolean threadsSleepAtOnce) {
        if (threadsSleepAtOnce || !ComputeOptions.current().singleThreadSmallModules()) {
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
