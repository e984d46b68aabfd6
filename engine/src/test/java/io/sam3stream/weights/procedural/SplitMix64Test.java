package io.sam3stream.weights.procedural;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class SplitMix64Test {

    @Test
    void outputsMatchTheStandardSequentialGenerator() {
        long seed = 1234567;
        assertEquals(Long.parseUnsignedLong("599ed017fb08fc85", 16), SplitMix64.output(seed, 0));
        assertEquals(Long.parseUnsignedLong("2c73f08458540fa5", 16), SplitMix64.output(seed, 1));
        assertEquals(Long.parseUnsignedLong("883ebce5a3f27c77", 16), SplitMix64.output(seed, 2));
    }

    @Test
    void jumpingAheadEqualsSteppingTheState() {
        long seed = Fnv1a64.hash("jump");
        long state = seed;
        for (long i = 0; i < 1000; i++) {
            state += SplitMix64.GAMMA;
            assertEquals(SplitMix64.mix64(state), SplitMix64.output(seed, i), "output " + i);
        }
    }

    /** The golden set samples its large stage outputs with this stream: index j >= 1 is output j - 1 mod numel. */
    @Test
    void reproducesTheFirstSampledIndicesOfTheGoldenStages() {
        assertArrayEquals(new long[] {3875131, 2386290, 470786, 2164186}, firstIndices("vit.block0", 5_308_416));
        assertArrayEquals(new long[] {1050285, 599582, 913406, 329203},
                firstIndices("p0.encoder.memory", 1_327_104));
    }

    private static long[] firstIndices(String stage, long numel) {
        long seed = Fnv1a64.hash(stage);
        long[] indices = new long[4];
        for (int j = 0; j < indices.length; j++) {
            indices[j] = Long.remainderUnsigned(SplitMix64.output(seed, j), numel);
        }
        return indices;
    }
}
