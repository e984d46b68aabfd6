package io.sam3stream.model.heads;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDArrays;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import io.sam3stream.model.nn.Params;
import io.sam3stream.testing.TinyGolden;
import java.util.List;

/**
 * The heads' inputs of golden cases, taken from upstream's own intermediate tensors so that these tests depend on
 * no other module of the engine: fusion-encoder memory and position encoding, the prompt and its mask, and the
 * segmentation head's terms of the neck's 4× and 2× levels (computed from upstream's levels by a float32 head of
 * the tiny checkpoint, as {@link GroundingHeads#levelTerms} computes them). Sequence-first golden tensors are turned
 * batch-first.
 */
public final class GoldenGroundingInputs {

    /** The float32 segmentation head that turns the golden levels into terms; its weights live for the JVM. */
    private static final class TermsHead {
        static final SegmentationHead INSTANCE = SegmentationHead.load(
                Params.root(TinyGolden.weights(), NDManager.newBaseManager()).sub("segmentation_head"),
                TinyGolden.config());
    }

    private GoldenGroundingInputs() {}

    /** One case as a batch of 1. */
    public static GroundingInputs of(NDManager manager, String goldenCase) {
        List<NDArray> levels = List.of(TinyGolden.output(manager, "neck.fpn0"),
                TinyGolden.output(manager, "neck.fpn1"));
        return new GroundingInputs(
                batchFirst(manager, goldenCase + ".encoder.memory"),
                batchFirst(manager, goldenCase + ".encoder.pos_embed"),
                batchFirst(manager, goldenCase + ".prompt.feats"),
                TinyGolden.booleans(manager, TinyGolden.outputs().get(goldenCase + ".prompt.mask")),
                TermsHead.INSTANCE.levelTerms(levels));
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
                NDArrays.concat(mask), first.levelTerms());
    }

    /** A golden (L, 1, C) sequence-first tensor as (1, L, C). */
    private static NDArray batchFirst(NDManager manager, String stage) {
        return TinyGolden.output(manager, stage).transpose(1, 0, 2);
    }
}
