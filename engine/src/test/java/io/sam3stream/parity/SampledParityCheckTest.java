package io.sam3stream.parity;

import static io.sam3stream.testing.SampledGoldenFile.bool;
import static io.sam3stream.testing.SampledGoldenFile.f64;
import static io.sam3stream.testing.SampledGoldenFile.i64;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sam3stream.model.result.ImageSize;
import io.sam3stream.testing.SampledGoldenFile;
import io.sam3stream.weights.RawTensor;
import io.sam3stream.weights.SafetensorsFile;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each rule of the sampled full-size check, on a small synthetic reference: one large stage sampled at four of its
 * 24 elements, and small stages of every kind stored whole.
 */
class SampledParityCheckTest {

    /** 5000 pixels: mask areas and probability sums may differ by 5. */
    private static final ImageSize IMAGE = new ImageSize(100, 50);

    private static final String LARGE = "vit.block0";
    private static final long[] LARGE_SHAPE = {2, 3, 4};
    /** Sampled positions, in generation order (not sorted); 0 and 23 (the minimum and maximum) are not among them. */
    private static final long[] LARGE_INDICES = {17, 3, 22, 8};
    /** x_i = 0.5 i − 3 for i = 0..23: mean 2.75, population std 0.5 √((24² − 1) / 12), min −3, max 8.5. */
    private static final TensorStatistics LARGE_STATS =
            new TensorStatistics(2.75, 0.5 * Math.sqrt((24 * 24 - 1) / 12.0), -3, 8.5);
    /** 1e-3 × std ≈ 3.46e-3. */
    private static final double LARGE_TOLERANCE = 1e-3 * LARGE_STATS.std();

    private static final String TEXT = "p0.text.language_features";
    private static final String TEXT_MASK = "p0.text.language_mask";
    /** Upstream's text features (L = 2, B = 1, C = 3): the second position is padding, with values nothing reads. */
    private static final float[] UPSTREAM_TEXT = {0.25f, -1.5f, 2, 0.125f, 3, -0.75f};
    /** Upstream's text states (B = 1, L = 2, C = 3), sampled: index 1 on the real position, 4 and 5 on padding. */
    private static final String SAMPLED_TEXT = "p0.text.transformer_tokens";
    private static final float[] UPSTREAM_TOKENS = {1.5f, -0.5f, 0.75f, 2.5f, -2, 4};
    private static final long[] SAMPLED_TEXT_INDICES = {4, 1, 5};
    private static final String SCORES = "p0.post.scores_all";
    private static final String KEEP = "p0.post_t050.keep";
    private static final String QUERIES = "p0.post_t050.query_index";
    private static final String BOXES = "p0.post_t050.boxes_xyxy_px";
    private static final String AREA = "p0.post_t050.mask_area";
    private static final String MASK_BOX = "p0.post_t050.mask_bbox_xyxy_incl";
    private static final String PROB_SUM = "p0.post_t050.mask_prob_sum";

    @TempDir
    Path dir;

    private SafetensorsFile file;
    private SampledReference reference;
    /** What a faithful engine would record: exactly the reference's values. */
    private final Map<String, RecordedStage> faithful = new LinkedHashMap<>();

    @BeforeEach
    void writeReference() {
        float[] large = new float[24];
        for (int i = 0; i < large.length; i++) {
            large[i] = 0.5f * i - 3;
        }
        faithful.put(LARGE, new RecordedStage(LARGE_SHAPE, large));
        faithful.put(TEXT, new RecordedStage(new long[] {2, 1, 3}, new float[] {0.25f, -1.5f, 2, 0, 0, 0}));
        faithful.put(SAMPLED_TEXT, new RecordedStage(new long[] {1, 2, 3}, new float[] {1.5f, -0.5f, 0.75f, 0, 0, 0}));
        faithful.put(TEXT_MASK, new RecordedStage(new long[] {1, 2}, new float[] {0, 1}));
        faithful.put(SCORES, new RecordedStage(new long[] {4}, new float[] {0.625f, 0.375f, 0.75f, 0.25f}));
        faithful.put(KEEP, new RecordedStage(new long[] {4}, new float[] {1, 0, 1, 0}));
        faithful.put(QUERIES, new RecordedStage(new long[] {2}, new float[] {0, 2}));
        faithful.put(BOXES, new RecordedStage(new long[] {2, 4}, new float[] {10, 5, 60, 40, 20, 10, 90, 45}));
        faithful.put(AREA, new RecordedStage(new long[] {2}, new float[] {1200, 3100}));
        faithful.put(MASK_BOX, new RecordedStage(new long[] {2, 4}, new float[] {0, 0, 99, 49, 3, 2, 97, 48}));
        faithful.put(PROB_SUM, new RecordedStage(new long[] {2}, new float[] {1210.25f, 3050.5f}));

        file = new SampledGoldenFile()
                .sampled(LARGE, LARGE_SHAPE, large, LARGE_INDICES, LARGE_STATS)
                .put(TEXT, RawTensor.ofFloats(UPSTREAM_TEXT, 2, 1, 3))
                .sampled(SAMPLED_TEXT, new long[] {1, 2, 3}, UPSTREAM_TOKENS, SAMPLED_TEXT_INDICES,
                        TensorStatistics.of(UPSTREAM_TOKENS))
                .put(TEXT_MASK, bool(new boolean[] {false, true}, 1, 2))
                .put(SCORES, RawTensor.ofFloats(faithful.get(SCORES).values(), 4))
                .put(KEEP, bool(new boolean[] {true, false, true, false}, 4))
                .put(QUERIES, i64(new long[] {0, 2}, 2))
                .put(BOXES, RawTensor.ofFloats(faithful.get(BOXES).values(), 2, 4))
                .put(AREA, i64(new long[] {1200, 3100}, 2))
                .put(MASK_BOX, i64(new long[] {0, 0, 99, 49, 3, 2, 97, 48}, 2, 4))
                .put(PROB_SUM, f64(new double[] {1210.25, 3050.5}, 2))
                .write(dir.resolve("outputs-sampled.safetensors"));
        reference = SampledReference.of(file);
    }

    @AfterEach
    void closeReference() {
        file.close();
    }

    /** Records the faithful stages with {@code changed} ones replaced, then checks them. */
    private ParityReport check(Map<String, RecordedStage> changed) {
        StageRecorder recorder = new StageRecorder(reference.wholeStages(), reference.sampleIndices());
        faithful.forEach((stage, recorded) -> {
            RecordedStage r = changed.getOrDefault(stage, recorded);
            recorder.put(stage, r.shape(), r.values());
        });
        return SampledParityCheck.compare(reference, recorder, IMAGE);
    }

    /** The faithful stage with element {@code index} moved by {@code delta}. */
    private Map<String, RecordedStage> shifted(String stage, int index, float delta) {
        RecordedStage r = faithful.get(stage);
        float[] values = r.values().clone();
        values[index] += delta;
        return Map.of(stage, new RecordedStage(r.shape(), values));
    }

    private static StageVerdict verdict(ParityReport report, String stage) {
        return report.verdicts().stream().filter(v -> v.stage().equals(stage)).findFirst().orElseThrow();
    }

    private static List<String> failedStages(ParityReport report) {
        return report.failures().stream().map(StageVerdict::stage).toList();
    }

    private static String lines(ParityReport report) {
        return report.verdicts().stream().map(StageVerdict::reportLine).collect(Collectors.joining("\n"));
    }

    @Test
    void faithfulStagesPass() {
        ParityReport report = check(Map.of());

        assertTrue(report.passed(), lines(report));
        assertEquals(faithful.size(), report.verdicts().size());
    }

    @Test
    void differencesInsideEveryBoundPass() {
        Map<String, RecordedStage> changed = new LinkedHashMap<>();
        changed.putAll(shifted(LARGE, 17, (float) (0.9 * LARGE_TOLERANCE)));
        changed.putAll(shifted(TEXT, 1, 0.9e-4f));
        changed.putAll(shifted(SCORES, 2, -0.9e-4f));
        changed.putAll(shifted(BOXES, 2, 0.009f)); // x1: 9e-5 of the width
        changed.putAll(shifted(AREA, 1, 4));
        changed.putAll(shifted(PROB_SUM, 0, -4.75f));

        ParityReport report = check(changed);

        assertTrue(report.passed(), lines(report));
    }

    @Test
    void sampledValueBeyondATenthPercentOfTheStdFails() {
        ParityReport report = check(shifted(LARGE, 17, (float) (1.5 * LARGE_TOLERANCE)));

        SampledComparison c = (SampledComparison) verdict(report, LARGE);
        assertEquals(List.of(LARGE), failedStages(report));
        assertTrue(c.maxSampleDiff() > LARGE_TOLERANCE, c.reportLine());
        for (double d : c.statisticsDiffs()) {
            assertTrue(d <= LARGE_TOLERANCE, "statistics alone would pass: " + c.reportLine());
        }
    }

    @Test
    void extremeOutsideTheSamplesIsCaughtByTheStatistics() {
        ParityReport report = check(shifted(LARGE, 23, (float) (1.5 * LARGE_TOLERANCE)));

        SampledComparison c = (SampledComparison) verdict(report, LARGE);
        assertEquals(List.of(LARGE), failedStages(report));
        assertEquals(0, c.maxSampleDiff(), "the samples are untouched");
        assertTrue(c.statisticsDiffs()[3] > LARGE_TOLERANCE, c.reportLine());
    }

    @Test
    void wrongShapeFailsEvenWithTheSameValues() {
        ParityReport report = check(Map.of(LARGE, new RecordedStage(new long[] {2, 4, 3}, faithful.get(LARGE).values())));

        assertEquals(List.of(LARGE), failedStages(report));
        assertTrue(verdict(report, LARGE).reportLine().contains("shape [2, 4, 3]"), lines(report));
    }

    @Test
    void tensorTooSmallForTheSampledIndicesFailsOnTheShape() {
        // as when fewer masks are kept: some sampled indices lie past the end of the smaller tensor
        float[] half = Arrays.copyOf(faithful.get(LARGE).values(), 12);
        ParityReport report = check(Map.of(LARGE, new RecordedStage(new long[] {1, 3, 4}, half)));

        assertEquals(List.of(LARGE), failedStages(report));
    }

    @Test
    void smallFloatStageBeyondTheAbsoluteBoundFails() {
        ParityReport report = check(shifted(TEXT, 1, 1.5e-4f));

        assertEquals(List.of(TEXT), failedStages(report));
    }

    @Test
    void theTextPaddingRowIsComparedAsZero() {
        ParityReport report = check(Map.of(TEXT, new RecordedStage(new long[] {2, 1, 3}, UPSTREAM_TEXT)));

        assertEquals(List.of(TEXT), failedStages(report));
    }

    @Test
    void aSampledTextStageIsComparedByItsSamplesWithThePaddingAsZero() {
        SampledComparison faithfulTokens = (SampledComparison) verdict(check(Map.of()), SAMPLED_TEXT);
        assertTrue(faithfulTokens.passed(), faithfulTokens.reportLine());
        assertFalse(faithfulTokens.statisticsCompared(), "upstream's statistics include the padding row");

        ParityReport upstreamPadding = check(Map.of(SAMPLED_TEXT, new RecordedStage(new long[] {1, 2, 3},
                UPSTREAM_TOKENS)));
        assertEquals(List.of(SAMPLED_TEXT), failedStages(upstreamPadding));

        double tolerance = 1e-3 * TensorStatistics.of(UPSTREAM_TOKENS).std();
        assertEquals(List.of(SAMPLED_TEXT), failedStages(check(shifted(SAMPLED_TEXT, 1, (float) (1.5 * tolerance)))));
        assertTrue(check(shifted(SAMPLED_TEXT, 1, (float) (0.5 * tolerance))).passed());
    }

    @Test
    void scoresBeyondTheAbsoluteBoundFail() {
        ParityReport report = check(shifted(SCORES, 1, 1.5e-4f));

        assertEquals(List.of(SCORES), failedStages(report));
    }

    @Test
    void pixelBoxesAreBoundInFractionsOfTheImageSide() {
        // 0.009 px is 9e-5 of the 100 px width but 1.8e-4 of the 50 px height
        assertTrue(check(shifted(BOXES, 0, 0.009f)).passed());
        assertEquals(List.of(BOXES), failedStages(check(shifted(BOXES, 1, 0.009f))));
    }

    @Test
    void differentKeptQueriesFail() {
        Map<String, RecordedStage> changed = Map.of(
                KEEP, new RecordedStage(new long[] {4}, new float[] {1, 0, 0, 1}),
                QUERIES, new RecordedStage(new long[] {2}, new float[] {0, 3}));

        assertEquals(List.of(KEEP, QUERIES), failedStages(check(changed)));
    }

    @Test
    void maskAreaBeyondATenthPercentOfTheImageFails() {
        assertEquals(List.of(AREA), failedStages(check(shifted(AREA, 0, -6))));
    }

    @Test
    void maskProbabilitySumBeyondATenthPercentOfTheImageFails() {
        assertEquals(List.of(PROB_SUM), failedStages(check(shifted(PROB_SUM, 1, 5.5f))));
    }

    @Test
    void maskBoundingBoxesMustMatchExactly() {
        assertEquals(List.of(MASK_BOX), failedStages(check(shifted(MASK_BOX, 5, 1))));
    }

    @Test
    void stageNeverRecordedIsReportedAndFails() {
        StageRecorder recorder = new StageRecorder(reference.wholeStages(), reference.sampleIndices());
        faithful.forEach((stage, r) -> {
            if (!stage.equals(AREA) && !stage.equals(LARGE)) {
                recorder.put(stage, r.shape(), r.values());
            }
        });

        ParityReport report = SampledParityCheck.compare(reference, recorder, IMAGE);

        assertEquals(List.of(LARGE, AREA), report.notImplemented());
        assertTrue(report.failures().isEmpty());
        assertFalse(report.passed());
    }
}
