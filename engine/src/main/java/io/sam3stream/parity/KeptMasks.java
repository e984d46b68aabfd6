package io.sam3stream.parity;

import io.sam3stream.imaging.MaskUpsampler;
import io.sam3stream.model.result.ImageSize;
import io.sam3stream.model.result.Instance;
import io.sam3stream.model.result.PromptDetections;
import java.util.List;

/**
 * The kept instances' masks at the original image size as upstream's {@code Sam3Processor} leaves them in its
 * state, {@code masks_logits} (in fact probabilities: sigmoid of the bilinearly upsampled logits) and {@code masks}
 * (those above 0.5), with the per-mask summaries the full-size golden layout stores instead of the binary masks:
 * area, inclusive bounding box and probability sum.
 */
final class KeptMasks {

    private final int count;
    private final ImageSize size;
    private final float[] probabilities;

    private KeptMasks(int count, ImageSize size, float[] probabilities) {
        this.count = count;
        this.size = size;
        this.probabilities = probabilities;
    }

    /** Upsamples every kept instance's mask logits of {@code detections} to {@code size}. */
    static KeptMasks of(PromptDetections detections, ImageSize size) {
        List<Instance> instances = detections.instances();
        int pixels = size.width() * size.height();
        float[] probabilities = new float[instances.size() * pixels];
        for (int i = 0; i < instances.size(); i++) {
            Instance instance = instances.get(i);
            MaskUpsampler upsampler = MaskUpsampler.of(instance.maskLogits().height(), instance.maskLogits().width(),
                    size.height(), size.width());
            float[] logits = upsampler.upsampleLogits(instance.maskLogits().toArray(), 0);
            for (int p = 0; p < pixels; p++) {
                probabilities[i * pixels + p] = (float) (1.0 / (1.0 + Math.exp(-logits[p])));
            }
        }
        return new KeptMasks(instances.size(), size, probabilities);
    }

    /** (N, 1, H, W), the layout of {@code mask_probs} and {@code masks}. */
    long[] shape() {
        return new long[] {count, 1, size.height(), size.width()};
    }

    /** {@code mask_probs}: per-pixel probabilities, C order. */
    float[] probabilities() {
        return probabilities;
    }

    /** {@code masks}: 1 where the probability exceeds 0.5, else 0. */
    float[] binary() {
        float[] masks = new float[probabilities.length];
        for (int p = 0; p < probabilities.length; p++) {
            masks[p] = foreground(p) ? 1f : 0f;
        }
        return masks;
    }

    /** {@code mask_area}: foreground pixels of each mask, (N). */
    float[] areas() {
        float[] areas = new float[count];
        int pixels = size.width() * size.height();
        for (int i = 0; i < count; i++) {
            int area = 0;
            for (int p = i * pixels; p < (i + 1) * pixels; p++) {
                area += foreground(p) ? 1 : 0;
            }
            areas[i] = area;
        }
        return areas;
    }

    /** {@code mask_bbox_xyxy_incl}: inclusive pixel bounds x0, y0, x1, y1 of each mask, −1s if empty, (N, 4). */
    float[] boundingBoxes() {
        float[] boxes = new float[4 * count];
        int width = size.width();
        int pixels = width * size.height();
        for (int i = 0; i < count; i++) {
            int x0 = Integer.MAX_VALUE;
            int y0 = Integer.MAX_VALUE;
            int x1 = -1;
            int y1 = -1;
            for (int p = 0; p < pixels; p++) {
                if (foreground(i * pixels + p)) {
                    x0 = Math.min(x0, p % width);
                    y0 = Math.min(y0, p / width);
                    x1 = Math.max(x1, p % width);
                    y1 = Math.max(y1, p / width);
                }
            }
            boolean empty = x1 < 0;
            boxes[4 * i] = empty ? -1 : x0;
            boxes[4 * i + 1] = empty ? -1 : y0;
            boxes[4 * i + 2] = x1;
            boxes[4 * i + 3] = y1;
        }
        return boxes;
    }

    /** {@code mask_prob_sum}: each mask's probabilities summed in binary64, (N). */
    float[] probabilitySums() {
        float[] sums = new float[count];
        int pixels = size.width() * size.height();
        for (int i = 0; i < count; i++) {
            double sum = 0;
            for (int p = i * pixels; p < (i + 1) * pixels; p++) {
                sum += probabilities[p];
            }
            sums[i] = (float) sum;
        }
        return sums;
    }

    private boolean foreground(int p) {
        return probabilities[p] > 0.5f;
    }
}
