package io.sam3stream.parity;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import io.sam3stream.model.EncodedImage;
import io.sam3stream.model.Sam3Model;
import io.sam3stream.model.heads.GroundingOutput;
import io.sam3stream.model.nn.StageSink;
import io.sam3stream.model.prompt.GeometryPrompt;
import io.sam3stream.model.result.DetectionPostProcessor;
import io.sam3stream.model.result.ImageSize;
import io.sam3stream.model.result.PromptDetections;
import io.sam3stream.model.text.TextEncoding;
import io.sam3stream.weights.RawTensor;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Runs the model on a golden folder's inputs exactly as upstream's {@code Sam3Processor} did when it produced the
 * folder: the image once, then each case with its own prompt, post-processed at each threshold the folder holds.
 * Every stage goes to a {@link StageRecorder}, including the masks at the original size and the stages the golden
 * sets derive from the model's outputs (the last decoder layer, the kept query indices, mask summaries).
 */
public final class ParityRun {

    /**
     * The time of each step, stage recording included.
     *
     * @param image ViT and neck of the image ({@code set_image})
     * @param cases per case in folder order: text encoder through post-processing and original-size masks
     *              ({@code set_text_prompt})
     */
    public record Timings(StepTimer.Elapsed image, Map<String, StepTimer.Elapsed> cases) {}

    private ParityRun() {}

    /** Runs every case of {@code folder} through {@code model}, recording into {@code recorder}. */
    public static Timings run(Sam3Model model, GoldenFolder folder, StageRecorder recorder) {
        int[] hw = folder.imageHeightWidth();
        ImageSize size = new ImageSize(hw[1], hw[0]);
        Map<String, StepTimer.Elapsed> cases = new LinkedHashMap<>();
        try (NDManager manager = NDManager.newBaseManager()) {
            RawTensor preprocessed = folder.preprocessedImage();
            NDArray input = manager.create(preprocessed.toFloats(), new Shape(preprocessed.shape()));
            StepTimer imageTimer = StepTimer.start();
            try (EncodedImage features = model.encodeImage(input, recorder)) {
                StepTimer.Elapsed image = imageTimer.elapsed();
                for (GoldenCase c : folder.cases()) {
                    StepTimer caseTimer = StepTimer.start();
                    runCase(model, features, c, size, manager, recorder);
                    cases.put(c.name(), caseTimer.elapsed());
                }
                return new Timings(image, cases);
            }
        }
    }

    private static void runCase(Sam3Model model, EncodedImage features, GoldenCase c, ImageSize size,
            NDManager manager, StageRecorder recorder) {
        String prefix = c.name() + ".";
        StageSink sink = withLastDecoderLayer(recorder.prefixed(prefix));
        NDArray ids = manager.create(c.tokenIds(), new Shape(1, c.tokenIds().length));
        try (TextEncoding text = model.encodeText(ids, sink);
                GroundingOutput out = model.ground(features, text, List.of(new GeometryPrompt(c.boxes())), sink)) {
            for (int hundredths : c.thresholds()) {
                PromptDetections d = new DetectionPostProcessor(hundredths / 100f).process(out, 0, size, sink);
                String thresholded = prefix + String.format(Locale.ROOT, "post_t%03d.", hundredths);
                recordQueryIndices(d, thresholded, recorder);
                recordMasks(d, size, thresholded, recorder);
            }
        } finally {
            ids.close();
        }
    }

    /** Also records {@code decoder.hs_last}, the last layer of {@code decoder.hs} (L, B, Q, d) alone. */
    private static StageSink withLastDecoderLayer(StageSink sink) {
        return (name, value) -> {
            sink.record(name, value);
            if (name.equals("decoder.hs")) {
                try (NDArray last = value.get(value.getShape().get(0) - 1)) {
                    sink.record("decoder.hs_last", last);
                }
            }
        };
    }

    /** {@code query_index}: the kept instances' decoder queries, in the order the engine returns them. */
    private static void recordQueryIndices(PromptDetections d, String prefix, StageRecorder recorder) {
        float[] queries = new float[d.instances().size()];
        for (int i = 0; i < queries.length; i++) {
            queries[i] = d.instances().get(i).queryIndex();
        }
        recorder.put(prefix + "query_index", new long[] {queries.length}, queries);
    }

    /** The masks at the original size and their summaries, those of them the reference holds. */
    private static void recordMasks(PromptDetections d, ImageSize size, String prefix, StageRecorder recorder) {
        List<String> stages = List.of("mask_probs", "masks", "mask_area", "mask_bbox_xyxy_incl", "mask_prob_sum");
        if (stages.stream().noneMatch(stage -> recorder.wants(prefix + stage))) {
            return;
        }
        KeptMasks masks = KeptMasks.of(d, size);
        long[] shape = masks.shape();
        long kept = shape[0];
        recorder.put(prefix + "mask_probs", shape, masks.probabilities());
        recorder.put(prefix + "mask_area", new long[] {kept}, masks.areas());
        recorder.put(prefix + "mask_bbox_xyxy_incl", new long[] {kept, 4}, masks.boundingBoxes());
        recorder.put(prefix + "mask_prob_sum", new long[] {kept}, masks.probabilitySums());
        if (recorder.wants(prefix + "masks")) {
            // a binary copy as large as the probabilities: built only when the reference holds the masks whole
            recorder.put(prefix + "masks", shape, masks.binary());
        }
    }
}
