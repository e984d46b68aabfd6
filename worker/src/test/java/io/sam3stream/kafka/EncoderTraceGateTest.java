package io.sam3stream.kafka;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sam3stream.device.EncoderTrace;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class EncoderTraceGateTest {

    @Test
    void aFusedDeviceIsReadyOnlyWhenTheWarmUpCapturedTheTraceAndRanThroughIt() {
        assertDoesNotThrow(() -> EncoderTraceGate.check(Optional.of(new EncoderTrace(true, true, 2, 0)), 2));

        IllegalStateException notCaptured = assertThrows(IllegalStateException.class,
                () -> EncoderTraceGate.check(Optional.of(new EncoderTrace(true, false, 0, 2)), 2));
        assertTrue(notCaptured.getMessage().contains("did not capture"), notCaptured.getMessage());
        IllegalStateException fellBack = assertThrows(IllegalStateException.class,
                () -> EncoderTraceGate.check(Optional.of(new EncoderTrace(true, true, 1, 1)), 2));
        assertTrue(fellBack.getMessage().startsWith("1 warm-up forward(s) ran the fusion encoder op by op"),
                fellBack.getMessage());
        IllegalStateException noWarmUp = assertThrows(IllegalStateException.class,
                () -> EncoderTraceGate.check(Optional.of(new EncoderTrace(true, false, 0, 0)), 0));
        assertTrue(noWarmUp.getMessage().contains("SAM3_WARMUP_RUNS=0"), noWarmUp.getMessage());
    }

    @Test
    void withoutAnExpectedTraceThereIsNothingToWaitFor() {
        assertDoesNotThrow(() -> EncoderTraceGate.check(Optional.empty(), 0));
        assertDoesNotThrow(() -> EncoderTraceGate.check(Optional.of(new EncoderTrace(false, false, 0, 5)), 2));
    }

    @Test
    void theHeartbeatCarriesTheReferenceServersFieldsWhereTheEncoderRunsOnADevice() {
        assertEquals(Map.of(), EncoderTraceGate.runtimeEntries(Optional.empty()));
        assertEquals(Map.of("encoder_trace_captured", "true", "encoder_fallbacks", "1"),
                EncoderTraceGate.runtimeEntries(Optional.of(new EncoderTrace(true, true, 3, 1))));
        assertEquals(Map.of("encoder_trace_captured", "false", "encoder_fallbacks", "0"),
                EncoderTraceGate.runtimeEntries(Optional.of(new EncoderTrace(false, false, 0, 4))));
    }
}
