package io.sam3stream.kafka;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sam3stream.engine.ModelSource;
import io.sam3stream.schemas.DemoModel;
import org.junit.jupiter.api.Test;

/**
 * The engine names the demo model's weights with the repository and revision that heartbeat readers (the facade's
 * banner, {@code /health}) take for the demo model: the two sides of the contract meet in the worker, which copies
 * one into the other.
 */
class DemoModelNameTest {

    @Test
    void theEnginesDemoModelIsWhatHeartbeatReadersCallTheDemoModel() {
        ModelSource demo = ModelSource.demo();
        assertTrue(DemoModel.is(demo.repo(), demo.revision()));
        assertFalse(DemoModel.is("facebook/sam3", ModelSource.DEMO_NAME));
    }
}
