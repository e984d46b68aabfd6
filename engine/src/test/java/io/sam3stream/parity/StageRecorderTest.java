package io.sam3stream.parity;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class StageRecorderTest {

    @Test
    void keepsOnlyStatisticsAndSampledValuesOfLargeStages() {
        StageRecorder recorder = new StageRecorder(Set.of(), Map.of("neck.fpn2", new long[] {5, 0, 2}));
        try (NDManager m = NDManager.newBaseManager()) {
            recorder.record("neck.fpn2", m.create(new float[] {1, 2, 3, 4, 5, 6}, new Shape(1, 2, 3)));
        }

        SampledStage stage = recorder.sampledStages().get("neck.fpn2");
        assertArrayEquals(new long[] {1, 2, 3}, stage.shape());
        assertArrayEquals(new float[] {6, 1, 3}, stage.values());
        assertEquals(new TensorStatistics(3.5, Math.sqrt(17.5 / 6), 1, 6), stage.statistics());
        assertTrue(recorder.stages().isEmpty());
    }

    @Test
    void keepsSmallStagesWholeAndIgnoresTheRest() {
        StageRecorder recorder = new StageRecorder(Set.of("p0.post_t050.keep"), Map.of());
        try (NDManager m = NDManager.newBaseManager()) {
            recorder.record("p0.post_t050.keep", m.create(new boolean[] {true, false, true}));
            recorder.record("p0.post_t050.scores", m.create(new float[] {0.7f, 0.6f}));
        }

        assertEquals(Set.of("p0.post_t050.keep"), recorder.stages().keySet());
        assertArrayEquals(new float[] {1, 0, 1}, recorder.stages().get("p0.post_t050.keep").values());
        assertTrue(recorder.sampledStages().isEmpty());
    }
}
