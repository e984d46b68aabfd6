package io.sam3stream.model.result;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.NDScope;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.Activation;
import io.sam3stream.model.decoder.Boxes;
import io.sam3stream.model.heads.GroundingOutput;
import io.sam3stream.model.nn.ComputeOptions;
import io.sam3stream.model.nn.PromptGraphs;
import io.sam3stream.model.nn.StageSink;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Turns raw detections into {@link PromptDetections} with upstream {@code Sam3Processor._forward_grounding}
 * semantics (docs/MODEL.md §11): score = sigmoid(class logit) · sigmoid(presence logit); an instance is kept when
 * its score is strictly above the confidence threshold; no NMS, no sorting, query order; boxes go from normalised
 * cxcywh to xyxy times [W, H, W, H] of the original image, not clipped. Masks stay logits at the head's resolution.
 */
public final class DetectionPostProcessor {

    private final float threshold;

    /** @param threshold confidence threshold in [0, 1]; scores must exceed it */
    public DetectionPostProcessor(float threshold) {
        if (!(threshold >= 0f && threshold <= 1f)) {
            throw new IllegalArgumentException("confidence threshold must lie in [0, 1], got " + threshold);
        }
        this.threshold = threshold;
    }

    /** Every prompt of the batch, in batch order. */
    public List<PromptDetections> process(GroundingOutput out, ImageSize image) {
        List<PromptDetections> results = new ArrayList<>(out.prompts());
        for (int prompt = 0; prompt < out.prompts(); prompt++) {
            results.add(process(out, prompt, image, StageSink.NONE));
        }
        return results;
    }

    /**
     * One prompt of the batch. Records {@code post.scores_all} and, under {@code post_tNNN} with NNN the threshold
     * in hundredths, {@code keep}, {@code scores} and {@code boxes_xyxy_px}.
     */
    public PromptDetections process(GroundingOutput out, int prompt, ImageSize image, StageSink sink) {
        if (ComputeOptions.current().moduleGraphs()) {
            return processGraph(out, prompt, image, sink);
        }
        try (NDScope scope = new NDScope()) {
            scope.suppressNotUsedWarning();
            float presence = Activation.sigmoid(out.presenceLogit().get(prompt)).getFloat(0);
            NDArray scoreArray = Activation.sigmoid(out.predLogits().get(prompt).squeeze(-1)).mul(presence);
            float[] scores = scoreArray.toFloatArray();
            float[] boxes = Boxes.cxcywhToXyxy(out.predBoxes().get(prompt)).toFloatArray();
            NDArray masks = out.predMasks().get(prompt);
            int maskHeight = Math.toIntExact(masks.getShape().get(1));
            int maskWidth = Math.toIntExact(masks.getShape().get(2));

            boolean[] keep = new boolean[scores.length];
            List<Instance> instances = new ArrayList<>();
            for (int q = 0; q < scores.length; q++) {
                keep[q] = scores[q] > threshold;
                if (keep[q]) {
                    instances.add(new Instance(q, scores[q], toPixels(boxes, q, image),
                            new MaskLogits(maskHeight, maskWidth, masks.get(q).toFloatArray())));
                }
            }
            if (sink.active()) {
                recordStages(sink, scoreArray, keep, instances);
            }
            return new PromptDetections(presence, instances);
        }
    }

    /**
     * {@link #process} as one call of the compiled graph ({@link PromptGraphs#detections}), which hands back the
     * kept queries' boxes and masks together instead of one mask per call.
     */
    private PromptDetections processGraph(GroundingOutput out, int prompt, ImageSize image, StageSink sink) {
        try (NDScope scope = new NDScope()) {
            scope.suppressNotUsedWarning();
            NDArray masks = out.predMasks().get(prompt);
            int maskHeight = Math.toIntExact(masks.getShape().get(1));
            int maskWidth = Math.toIntExact(masks.getShape().get(2));
            NDList r = PromptGraphs.detections(out.predLogits().get(prompt), out.presenceLogit().get(prompt),
                    out.predBoxes().get(prompt), masks, threshold);
            float presence = r.get(0).toFloatArray()[0];
            NDArray scoreArray = r.get(1);
            boolean[] keep = r.get(2).toBooleanArray();
            float[] keptBoxes = r.get(3).toFloatArray();
            float[] keptMasks = r.get(4).toFloatArray();
            float[] scores = scoreArray.toFloatArray();
            int pixels = maskHeight * maskWidth;
            List<Instance> instances = new ArrayList<>();
            for (int q = 0, k = 0; q < keep.length; q++) {
                if (keep[q]) {
                    instances.add(new Instance(q, scores[q], toPixels(keptBoxes, k, image), new MaskLogits(maskHeight,
                            maskWidth, Arrays.copyOfRange(keptMasks, k * pixels, (k + 1) * pixels))));
                    k++;
                }
            }
            if (sink.active()) {
                recordStages(sink, scoreArray, keep, instances);
            }
            return new PromptDetections(presence, instances);
        }
    }

    /** Box {@code q} of normalised xyxy boxes scaled by [W, H, W, H] in float arithmetic, as upstream. */
    private static PixelBox toPixels(float[] xyxy, int q, ImageSize image) {
        float w = image.width();
        float h = image.height();
        int o = 4 * q;
        return new PixelBox(xyxy[o] * w, xyxy[o + 1] * h, xyxy[o + 2] * w, xyxy[o + 3] * h);
    }

    private void recordStages(StageSink sink, NDArray scores, boolean[] keep, List<Instance> instances) {
        NDManager manager = scores.getManager();
        float[] keptScores = new float[instances.size()];
        float[] keptBoxes = new float[4 * instances.size()];
        for (int i = 0; i < instances.size(); i++) {
            Instance instance = instances.get(i);
            PixelBox b = instance.box();
            keptScores[i] = instance.score();
            keptBoxes[4 * i] = b.x0();
            keptBoxes[4 * i + 1] = b.y0();
            keptBoxes[4 * i + 2] = b.x1();
            keptBoxes[4 * i + 3] = b.y1();
        }
        String thresholded = String.format(Locale.ROOT, "post_t%03d.", Math.round(threshold * 100));
        sink.record("post.scores_all", scores);
        sink.record(thresholded + "keep", manager.create(keep));
        sink.record(thresholded + "scores", manager.create(keptScores));
        sink.record(thresholded + "boxes_xyxy_px", manager.create(keptBoxes, new Shape(instances.size(), 4)));
    }
}
