package io.sam3stream.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import ai.djl.pytorch.jni.JniUtils;
import io.sam3stream.config.Settings;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

class EngineThreadsTest {

    @AfterAll
    static void restoreTheDefault() {
        EngineFactory.configureThreads(Settings.from(Map.of()));
    }

    @Test
    void theIntraOpThreadCountFollowsTheSettingsEvenAfterTheEngineHasStarted() {
        assertEquals(1, EngineFactory.configureThreads(Settings.from(Map.of("SAM3_NUM_THREADS", "1"))));
        assertEquals(1, JniUtils.getNumThreads());

        assertEquals(2, EngineFactory.configureThreads(Settings.from(Map.of("SAM3_NUM_THREADS", "2"))));
        assertEquals(2, JniUtils.getNumThreads(), "a second configuration in the same process takes effect");
    }

    @Test
    void zeroMeansEveryCoreThisProcessMayUse() {
        int cores = Runtime.getRuntime().availableProcessors();
        assertEquals(cores, EngineFactory.configureThreads(Settings.from(Map.of("SAM3_NUM_THREADS", "0"))));
        assertEquals(cores, JniUtils.getNumThreads());
    }
}
