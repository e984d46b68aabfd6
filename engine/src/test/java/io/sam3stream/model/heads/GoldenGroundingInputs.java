package io.sam3stream.model.heads;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDArrays;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import io.sam3stream.testing.TinyGolden;
import java.util.List;

/**
 * The heads' inputs of golden cases, taken from upstream's own intermediate tensors so that these tests depend on
 * no other module of the engine: fusion-encoder memory and position encoding, the prompt and its mask, the neck's
 * 4× and 2× levels. Sequence-first golden tensors are turned batch-first.
 */
public final class GoldenGroundingInputs {

    private GoldenGroundingInputs() {}

    /** One case as a batch of 1. */
    public static GroundingInputs of(NDManager manager, String goldenCase) {
        return new GroundingInputs(
                batchFirst(manager, goldenCase + ".encoder.memory"),
                batchFirst(manager, goldenCase + ".encoder.pos_embed"),
                batchFirst(manager, goldenCase + ".prompt.feats"),
                TinyGolden.booleans(manager, TinyGolden.outputs().get(goldenCase + ".prompt.mask")),
                List.of(TinyGolden.output(manager, "neck.fpn0"), TinyGolden.output(manager, "neck.fpn1")));
    }

    /**
     * Several cases of the same prompt length as one batch, in the given order. The position encoding and the
     * pyramid levels are the image's single copy (batch 1), as in serving.
     */
    public static GroundingInputs batch(NDManager manager, String... goldenCases) {
        NDList memory = new NDList();
        NDList prompt = new NDList();
        NDList mask = new NDList();
        for (String c : goldenCases) {
            GroundingInputs single = of(manager, c);
            memory.add(single.memory());
            prompt.add(single.prompt());
            mask.add(single.promptMask());
        }
        GroundingInputs first = of(manager, goldenCases[0]);
        return new GroundingInputs(NDArrays.concat(memory), first.memoryPos(), NDArrays.concat(prompt),
                NDArrays.concat(mask), first.finerLevels());
    }

    /** A golden (L, 1, C) sequence-first tensor as (1, L, C). */
    private static NDArray batchFirst(NDManager manager, String stage) {
        return TinyGolden.output(manager, stage).transpose(1, 0, 2);
    }
}
