package io.sam3stream.parity;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import io.sam3stream.imaging.MaskUpsampler;
import io.sam3stream.model.Sam3Model;
import io.sam3stream.model.heads.GroundingOutput;
import io.sam3stream.model.neck.ImageFeatures;
import io.sam3stream.model.nn.StageSink;
import io.sam3stream.model.prompt.GeometryPrompt;
import io.sam3stream.model.result.DetectionPostProcessor;
import io.sam3stream.model.result.ImageSize;
import io.sam3stream.model.result.Instance;
import io.sam3stream.model.result.PromptDetections;
import io.sam3stream.model.text.TextEncoding;
import io.sam3stream.weights.RawTensor;
import java.util.List;
import java.util.Locale;

/**
 * Runs the model on a golden folder's inputs exactly as upstream's {@code Sam3Processor} did when it produced the
 * folder: the image once, then each case with its own prompt, post-processed at each threshold the folder holds.
 * Every stage goes to a {@link StageRecorder}, including the masks at the original size.
 */
public final class ParityRun {

    private ParityRun() {}

    /** Runs every case of {@code folder} through {@code model}, recording into {@code recorder}. */
    public static void run(Sam3Model model, GoldenFolder folder, StageRecorder recorder) {
        int[] hw = folder.imageHeightWidth();
        ImageSize size = new ImageSize(hw[1], hw[0]);
        try (NDManager manager = NDManager.newBaseManager()) {
            RawTensor image = folder.preprocessedImage();
            NDArray input = manager.create(image.toFloats(), new Shape(image.shape()));
            try (ImageFeatures features = model.encodeImage(input, recorder)) {
                for (GoldenCase c : folder.cases()) {
                    runCase(model, features, c, size, manager, recorder);
                }
            }
        }
    }

    private static void runCase(Sam3Model model, ImageFeatures features, GoldenCase c, ImageSize size,
            NDManager manager, StageRecorder recorder) {
        String prefix = c.name() + ".";
        StageSink sink = recorder.prefixed(prefix);
        NDArray ids = manager.create(c.tokenIds(), new Shape(1, c.tokenIds().length));
        try (TextEncoding text = model.encodeText(ids, sink);
                GroundingOutput out = model.ground(features, text, List.of(new GeometryPrompt(c.boxes())), sink)) {
            for (int hundredths : c.thresholds()) {
                PromptDetections d = new DetectionPostProcessor(hundredths / 100f).process(out, 0, size, sink);
                recordMasks(d, size, prefix + String.format(Locale.ROOT, "post_t%03d.", hundredths), recorder);
            }
        } finally {
            ids.close();
        }
    }

    /** Upstream's {@code masks_logits} (sigmoid of the upsampled logits) and {@code masks} (those > 0.5). */
    private static void recordMasks(PromptDetections d, ImageSize size, String prefix, StageRecorder recorder) {
        if (!recorder.wants(prefix + "mask_probs") && !recorder.wants(prefix + "masks")) {
            return;
        }
        int pixels = size.width() * size.height();
        int n = d.instances().size();
        float[] probabilities = new float[n * pixels];
        float[] masks = new float[n * pixels];
        for (int i = 0; i < n; i++) {
            Instance instance = d.instances().get(i);
            MaskUpsampler upsampler = MaskUpsampler.of(instance.maskLogits().height(), instance.maskLogits().width(),
                    size.height(), size.width());
            float[] logits = upsampler.upsampleLogits(instance.maskLogits().toArray(), 0);
            for (int p = 0; p < pixels; p++) {
                float probability = (float) (1.0 / (1.0 + Math.exp(-logits[p])));
                probabilities[i * pixels + p] = probability;
                masks[i * pixels + p] = probability > 0.5f ? 1f : 0f;
            }
        }
        long[] shape = {n, 1, size.height(), size.width()};
        recorder.put(prefix + "mask_probs", shape, probabilities);
        recorder.put(prefix + "masks", shape, masks);
    }
}
