package io.sam3stream.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sam3stream.config.Knob;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ServiceVariablesTest {

    @Test
    void knobsAndTheNativeLibraryOverrideAreRead() {
        assertTrue(ServiceVariables.isRead("SAM3_MAX_MESSAGE_BYTES"));
        assertTrue(ServiceVariables.isRead("KAFKA_BOOTSTRAP_SERVERS"));
        assertTrue(ServiceVariables.isRead("SAM3_NATIVE_LIB"));
    }

    @Test
    void kafkaVariablesCountOnlyWhenTheyNameAClientProperty() {
        assertTrue(ServiceVariables.isRead("KAFKA_SECURITY_PROTOCOL"));
        assertTrue(ServiceVariables.isRead("KAFKA_MAX_POLL_INTERVAL_MS"));
        assertFalse(ServiceVariables.isRead("KAFKA_SECURTY_PROTOCOL"), "misspelt property");
        assertFalse(ServiceVariables.isRead("KAFKA_MESSAGE_MAX_BYTES"), "a broker setting, not a client one");
    }

    @Test
    void unknownNamesAreNotRead() {
        assertFalse(ServiceVariables.isRead("SAM3_MAX_MESAGE_BYTES"));
        assertFalse(ServiceVariables.isRead("JAVA_TOOL_OPTIONS"));
    }

    @Test
    void resolvedValuesFallBackToTheKnobDefault() {
        assertEquals("16777216", ServiceVariables.resolved(Map.of(), Knob.SAM3_MAX_MESSAGE_BYTES));
        assertEquals("8", ServiceVariables.resolved(Map.of("SAM3_TOPIC_PARTITIONS", "8"), Knob.SAM3_TOPIC_PARTITIONS));
    }
}
