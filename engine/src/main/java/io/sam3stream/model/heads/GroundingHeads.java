package io.sam3stream.model.heads;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import io.sam3stream.model.config.Sam3Config;
import io.sam3stream.model.decoder.Boxes;
import io.sam3stream.model.decoder.DecoderOutput;
import io.sam3stream.model.decoder.TransformerDecoder;
import io.sam3stream.model.nn.ComputeOptions;
import io.sam3stream.model.nn.ModuleClock;
import io.sam3stream.model.nn.Params;
import io.sam3stream.model.nn.Scopes;
import io.sam3stream.model.nn.SmallOperatorThreads;
import io.sam3stream.model.nn.StageSink;
import java.util.List;

/**
 * Everything after the fusion encoder (upstream {@code Sam3Image._run_decoder}, {@code _update_scores_and_boxes}
 * and {@code _run_segmentation_heads}): the decoder, the dot-product scores of its queries, their boxes, the presence
 * logit and the mask logits, for B prompts of one image at once.
 */
public final class GroundingHeads {

    private final TransformerDecoder decoder;
    private final DotProductScoring scoring;
    private final SegmentationHead segmentationHead;

    /** Composes the three modules; {@link #load} builds them from a checkpoint. */
    public GroundingHeads(TransformerDecoder decoder, DotProductScoring scoring, SegmentationHead segmentationHead) {
        this.decoder = decoder;
        this.scoring = scoring;
        this.segmentationHead = segmentationHead;
    }

    /** Loads {@code transformer.decoder}, {@code dot_prod_scoring} and {@code segmentation_head} from the root. */
    public static GroundingHeads load(Params root, Sam3Config config) {
        return load(root, root, config);
    }

    /**
     * As {@link #load(Params, Sam3Config)}, the segmentation head's pixel decoder from {@code convolutionRoot}: the
     * same weights in a precision of their own, for its convolutions.
     */
    public static GroundingHeads load(Params root, Params convolutionRoot, Sam3Config config) {
        return new GroundingHeads(TransformerDecoder.load(root.sub("transformer.decoder"), config),
                DotProductScoring.load(root.sub("dot_prod_scoring")),
                SegmentationHead.load(root.sub("segmentation_head"),
                        convolutionRoot.sub("segmentation_head.pixel_decoder"), config));
    }

    /**
     * What the segmentation head reads of an image's finer pyramid levels, computed once per image
     * ({@link SegmentationHead#levelTerms}).
     *
     * @param finerLevels the neck's 4× and 2× levels, finest first
     * @return the terms for {@link GroundingInputs#levelTerms}; the caller closes them
     */
    public List<NDArray> levelTerms(List<NDArray> finerLevels) {
        return segmentationHead.levelTerms(finerLevels);
    }

    /**
     * Records the decoder's and segmentation head's stages, {@code decoder.class_logits_all_layers} and
     * {@code out.pred_logits}, {@code out.pred_boxes_cxcywh}, {@code out.pred_boxes_xyxy},
     * {@code out.presence_logit}.
     */
    public GroundingOutput forward(GroundingInputs in, StageSink sink) {
        NDList out = Scopes.keepAll(() -> {
            DecoderOutput decoded;
            NDArray classLogits;
            try (ComputeOptions.Scope oneThread = SmallOperatorThreads.enter()) {
                decoded = decoder.forward(in.memory(), in.memoryPos(), in.prompt(), in.promptMask(), sink);
                ModuleClock.lap("decoder");
                classLogits = scoring.forward(decoded.hs(), in.prompt(), in.promptMask());
                ModuleClock.lap("dot_prod_scoring");
            }
            NDArray predLogits = classLogits.get(classLogits.getShape().get(0) - 1);
            NDArray presenceLogit = decoded.lastPresenceLogit();
            NDArray predMasks = segmentationHead.forward(in.memory(), in.prompt(), in.promptMask(), in.levelTerms(),
                    decoded.lastHs(), sink);
            ModuleClock.lap("segmentation_head");
            if (sink.active()) {
                sink.record("decoder.class_logits_all_layers", classLogits);
                sink.record("out.pred_logits", predLogits);
                sink.record("out.pred_boxes_cxcywh", decoded.predBoxes());
                sink.record("out.pred_boxes_xyxy", Boxes.cxcywhToXyxy(decoded.predBoxes()));
                sink.record("out.presence_logit", presenceLogit);
            }
            return new NDList(predLogits, decoded.predBoxes(), presenceLogit, predMasks);
        });
        return new GroundingOutput(out.get(0), out.get(1), out.get(2), out.get(3));
    }
}
