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
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The compiled graphs of the image side (float32 ViT trunk, neck) and of the prompt side (text encoder, geometry
 * encoder, fusion encoder, decoder, scoring, segmentation head, detection post-processing) compute what their
 * op-by-op Java forms compute: every stage those modules record, for every tiny golden case, equal to float
 * rounding (the graphs call the same libtorch operators; only group norm and the 2× upsampling are single
 * native operators there, as upstream calls them, and large float32 linear layers of the prompt side oneDNN's
 * products, which the tiny model's single prompts do not reach), in float32 and in bfloat16.
 *
 * <p>In bfloat16 the pixel decoder's convolutions narrow their inputs, so where group norm's float32 rounding differs
 * between the two forms an input may land on the other side of a bfloat16 rounding boundary: the stages computed
 * from the pixel decoder may then differ by one bfloat16 step of their magnitude, and a few mask pixels near the
 * threshold may flip. Every other stage stays equal to float32 rounding.
 */
class ModuleGraphsEqualityTest {

    /** Stages of the image side's graph modules, which carry no case name. */
    private static final List<String> IMAGE_PREFIXES = List.of("vit.", "neck.");

    /** Stages the prompt side's modules emit (and the model outputs built from them), after the case name. */
    private static final List<String> MODULE_PREFIXES = List.of("text.", "geo.", "prompt.", "encoder.",
            "decoder.", "seg.", "out.", "post");

    /** Float rounding of a few hundred chained float32 operators, relative to the stage's largest magnitude. */
    private static final double ROUNDING = 1e-5;

    /** Significand bits of bfloat16 after the leading one. */
    private static final int BF16_FRACTION_BITS = 7;

    /** Share of a mask's pixels that may flip where its probabilities differ by a bfloat16 step. */
    private static final double MASK_FLIPS = 1e-3;

    /** Stages computed from the pixel decoder's output, after the case name. */
    private static final List<String> PIXEL_DECODER_STAGES = List.of(".seg.pixel_embed", ".seg.instance_embeds",
            ".seg.semantic_seg", ".seg.pred_masks", ".mask_probs", ".masks");

    private static final ComputeOptions OP_BY_OP = ComputeOptions.OPTIMIZED.withOpByOpModules();

    @ParameterizedTest
    @MethodSource("precisions")
    void graphsMatchTheOpByOpModulesStageByStage(Precision precision) {
        Map<String, RecordedStage> graphs = recordAll(ComputeOptions.OPTIMIZED, precision);
        Map<String, RecordedStage> reference = recordAll(OP_BY_OP, precision);
        TreeSet<String> compared = new TreeSet<>();
        boolean anyDifference = false;
        for (Map.Entry<String, RecordedStage> entry : reference.entrySet()) {
            String stage = entry.getKey();
            if (MODULE_PREFIXES.stream().noneMatch(p -> stage.contains("." + p))
                    && IMAGE_PREFIXES.stream().noneMatch(stage::startsWith)) {
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
            int differing = 0;
            for (int i = 0; i < expected.values().length; i++) {
                double diff = Math.abs(expected.values()[i] - actual.values()[i]);
                worst = Math.max(worst, diff);
                differing += diff > 0 ? 1 : 0;
            }
            boolean narrowed = !precision.isFp32() && PIXEL_DECODER_STAGES.stream().anyMatch(stage::endsWith);
            if (narrowed && stage.endsWith(".masks")) {
                assertTrue(differing <= MASK_FLIPS * expected.values().length,
                        stage + ": " + differing + " of " + expected.values().length + " pixels differ");
            } else {
                double bound = narrowed ? bf16Step(scale) : ROUNDING * scale;
                assertTrue(worst <= bound, stage + ": graph differs by " + worst + " (scale " + scale + ")");
            }
            compared.add(stage);
            anyDifference |= differing > 0;
        }
        assertFalse(compared.isEmpty(), "no module stage was compared");
        assertTrue(anyDifference, "both runs took the same path: group norm's rounding tells the graph apart");
        assertTrue(compared.contains("vit.block1") && compared.contains("vit.out"), "ViT stages compared");
        assertTrue(compared.contains("neck.fpn0") && compared.contains("neck.fpn3"), "neck stages compared");
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

    /** The spacing of bfloat16 values at {@code magnitude}: one step of its last significand bit. */
    private static double bf16Step(double magnitude) {
        return Math.scalb(1.0, Math.getExponent(magnitude) - BF16_FRACTION_BITS);
    }

    static Stream<Precision> precisions() {
        return Stream.of(Precision.FP32, Precision.BF16_LINEAR, Precision.BF16);
    }

    private static Map<String, RecordedStage> recordAll(ComputeOptions options, Precision precision) {
        try (GoldenFolder folder = GoldenFolder.open(TinyGolden.dir());
                WeightSource weights = CheckpointLoader.open(TinyGolden.dir().resolve("sam3-tiny.pt"));
                Sam3Model model = Sam3Model.load(weights, folder.config(), NeckLevels.ALL, precision);
                ComputeOptions.Scope scope = options.activate()) {
            StageRecorder recorder = new StageRecorder(folder.outputs().names());
            ParityRun.run(model, folder, recorder);
            return recorder.stages();
        }
    }
}
