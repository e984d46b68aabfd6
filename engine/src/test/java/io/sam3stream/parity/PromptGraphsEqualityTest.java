package io.sam3stream.parity;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sam3stream.model.Sam3Model;
import io.sam3stream.model.neck.NeckLevels;
import io.sam3stream.model.nn.ComputeOptions;
import io.sam3stream.model.nn.Precision;
import io.sam3stream.testing.TinyGolden;
import io.sam3stream.weights.CheckpointLoader;
import io.sam3stream.weights.WeightSource;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The compiled graphs of the prompt side (text encoder, geometry encoder, fusion encoder, decoder, scoring,
 * segmentation head, detection post-processing)
 * compute what their op-by-op Java forms compute: every stage those modules record, for every tiny golden case, equal to float rounding (the graphs call
 * the same libtorch operators; only group norm and the 2× upsampling are single native operators there, as
 * upstream calls them).
 */
class PromptGraphsEqualityTest {

    /** Stages the three modules emit (and the model outputs built from them), after the case name. */
    private static final List<String> MODULE_PREFIXES = List.of("text.", "geo.", "prompt.", "encoder.",
            "decoder.", "seg.", "out.", "post");

    /** Float rounding of a few hundred chained float32 operators, relative to the stage's largest magnitude. */
    private static final double ROUNDING = 1e-5;

    private static final ComputeOptions OP_BY_OP = ComputeOptions.OPTIMIZED.withOpByOpPromptSide();

    @Test
    void graphsMatchTheOpByOpModulesStageByStage() {
        Map<String, RecordedStage> graphs = recordAll(ComputeOptions.OPTIMIZED);
        Map<String, RecordedStage> reference = recordAll(OP_BY_OP);
        TreeSet<String> compared = new TreeSet<>();
        for (Map.Entry<String, RecordedStage> entry : reference.entrySet()) {
            String stage = entry.getKey();
            if (MODULE_PREFIXES.stream().noneMatch(p -> stage.contains("." + p))) {
                continue;
            }
            RecordedStage expected = entry.getValue();
            RecordedStage actual = graphs.get(stage);
            assertTrue(actual != null, stage + " not recorded by the graph path");
            assertArrayEquals(expected.shape(), actual.shape(), stage);
            double scale = 1;
            for (float v : expected.values()) {
                scale = Math.max(scale, Math.abs(v));
            }
            double worst = 0;
            for (int i = 0; i < expected.values().length; i++) {
                worst = Math.max(worst, Math.abs(expected.values()[i] - actual.values()[i]));
            }
            assertTrue(worst <= ROUNDING * scale, stage + ": graph differs by " + worst + " (scale " + scale + ")");
            compared.add(stage);
        }
        assertFalse(compared.isEmpty(), "no module stage was compared");
        assertTrue(compared.stream().anyMatch(s -> s.contains("text.language_features")), "text stages compared");
        assertTrue(compared.stream().anyMatch(s -> s.contains("geo.feats")), "geometry stages compared");
        assertTrue(compared.stream().anyMatch(s -> s.contains("encoder.memory")), "fusion stages compared");
        assertTrue(compared.stream().anyMatch(s -> s.contains("decoder.hs")), "decoder stages compared");
        assertTrue(compared.stream().anyMatch(s -> s.contains("seg.pred_masks")), "segmentation stages compared");
        assertTrue(compared.stream().anyMatch(s -> s.contains("out.pred_logits")), "scores compared");
        assertTrue(compared.stream().anyMatch(s -> s.contains("post_t") && s.endsWith(".boxes_xyxy_px")),
                "detections compared");
        assertEquals(graphs.keySet(), reference.keySet(), "both paths record the same stages");
    }

    private static Map<String, RecordedStage> recordAll(ComputeOptions options) {
        try (GoldenFolder folder = GoldenFolder.open(TinyGolden.dir());
                WeightSource weights = CheckpointLoader.open(TinyGolden.dir().resolve("sam3-tiny.pt"));
                Sam3Model model = Sam3Model.load(weights, folder.config(), NeckLevels.ALL, Precision.FP32);
                ComputeOptions.Scope scope = options.activate()) {
            StageRecorder recorder = new StageRecorder(folder.outputs().names());
            ParityRun.run(model, folder, recorder);
            return recorder.stages();
        }
    }
}
