package io.sam3stream.model.nn;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class ComputeOptionsTest {

    @Test
    void theEngineServesWithEveryMeasureOn() {
        assertEquals(ComputeOptions.OPTIMIZED, ComputeOptions.current());
        assertEquals("fused attention, fused RoPE, window layout reuse, oneDNN linear+GELU, module graphs, small modules on one thread"
                + " where OpenMP threads spin",
                ComputeOptions.OPTIMIZED.describe());
        assertEquals("none", ComputeOptions.PLAIN.describe());
    }

    @Test
    void scopesNestAndRestoreOnlyOnTheirThread() throws Exception {
        ComputeOptions attentionOnly = new ComputeOptions(true, false, false, false, false, false);
        try (ComputeOptions.Scope plain = ComputeOptions.PLAIN.activate()) {
            assertEquals(ComputeOptions.PLAIN, ComputeOptions.current());
            assertEquals(ComputeOptions.OPTIMIZED, CompletableFuture.supplyAsync(ComputeOptions::current).get());
            try (ComputeOptions.Scope inner = attentionOnly.activate()) {
                assertEquals(attentionOnly, ComputeOptions.current());
            }
            assertEquals(ComputeOptions.PLAIN, ComputeOptions.current());
        }
        assertEquals(ComputeOptions.OPTIMIZED, ComputeOptions.current());
    }
}
