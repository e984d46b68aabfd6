package io.sam3stream.model.nn;

import ai.djl.ndarray.NDArray;

/**
 * Builds the golden layouts of stages whose tensors the model keeps in another layout. Upstream keeps prompts and
 * encoder memory sequence-first (L, B, C), PyTorch {@code nn.MultiheadAttention}'s default, while this engine
 * keeps them batch-first (B, L, C).
 */
public final class StageLayouts {

    private StageLayouts() {}

    /**
     * Records a batch-first (B, L, C) tensor as sequence-first (L, B, C). Nothing is built when the sink is inactive;
     * the transposed view is released once the sink returns.
     */
    public static void recordSequenceFirst(StageSink sink, String name, NDArray batchFirst) {
        if (!sink.active()) {
            return;
        }
        try (NDArray seqFirst = batchFirst.transpose(1, 0, 2)) {
            sink.record(name, seqFirst);
        }
    }
}
