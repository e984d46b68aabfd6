package io.sam3stream.model.result;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class PromptDetectionsTest {

    private static final PromptDetections QUERY_ORDER = new PromptDetections(0.9f, List.of(
            instance(2, 0.6f), instance(4, 0.9f), instance(5, 0.6f), instance(7, 0.7f)));

    @Test
    void highestScoringSortsBestFirstAndBreaksTiesByQueryIndex() {
        assertArrayEquals(new int[] {4, 7, 2, 5}, queries(QUERY_ORDER.highestScoring(10)));
    }

    @Test
    void highestScoringKeepsAtMostTheRequestedCount() {
        PromptDetections top = QUERY_ORDER.highestScoring(2);
        assertArrayEquals(new int[] {4, 7}, queries(top));
        assertEquals(0.9f, top.presence());
        assertEquals(0, QUERY_ORDER.highestScoring(0).instances().size());
    }

    @Test
    void highestScoringRejectsANegativeCount() {
        assertThrows(IllegalArgumentException.class, () -> QUERY_ORDER.highestScoring(-1));
    }

    @Test
    void maskLogitsAreCopiedOnTheWayInAndOut() {
        float[] values = {1f, 2f, 3f, 4f, 5f, 6f};
        MaskLogits mask = new MaskLogits(2, 3, values);
        values[0] = 99f;
        mask.toArray()[1] = 99f;

        assertEquals(1f, mask.at(0, 0));
        assertEquals(2f, mask.at(0, 1));
        assertEquals(6f, mask.at(1, 2));
        assertThrows(IndexOutOfBoundsException.class, () -> mask.at(2, 0));
        assertThrows(IllegalArgumentException.class, () -> new MaskLogits(2, 2, values));
    }

    private static Instance instance(int query, float score) {
        return new Instance(query, score, new PixelBox(0, 0, 1, 1), new MaskLogits(1, 1, new float[] {0f}));
    }

    private static int[] queries(PromptDetections detections) {
        return detections.instances().stream().mapToInt(Instance::queryIndex).toArray();
    }
}
