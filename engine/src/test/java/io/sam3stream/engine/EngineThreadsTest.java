package io.sam3stream.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.pytorch.jni.JniUtils;
import io.sam3stream.config.Settings;
import io.sam3stream.model.config.Sam3Config;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

class EngineThreadsTest {

    private static final int CORES = Runtime.getRuntime().availableProcessors();

    @AfterAll
    static void restoreTheDefault() {
        EngineFactory.configureThreads(Settings.from(Map.of()), Sam3Config.fullSize());
    }

    @Test
    void theIntraOpThreadCountFollowsTheSettingsEvenAfterTheEngineHasStarted() {
        assertEquals(1, configure("1", Sam3Config.fullSize()).count());
        assertEquals(1, JniUtils.getNumThreads());

        assertEquals(2, configure("2", Sam3Config.demo()).count(), "an explicit count is obeyed for any model");
        assertEquals(2, JniUtils.getNumThreads(), "a second configuration in the same process takes effect");
    }

    @Test
    void zeroGivesAModelOfTheReleasedSizeEveryCoreThisProcessMayUse() {
        IntraOpThreads threads = configure("0", Sam3Config.fullSize());

        assertEquals(CORES, threads.count());
        assertEquals(CORES, JniUtils.getNumThreads());
        assertTrue(threads.reason().contains("every core"), threads.reason());
    }

    @Test
    void zeroGivesASmallModelOneThread() {
        IntraOpThreads threads = configure("0", Sam3Config.demo());

        assertEquals(1, threads.count());
        assertEquals(1, JniUtils.getNumThreads());
        assertTrue(threads.reason().contains("ViT width 64 < " + IntraOpThreads.MIN_SPLIT_VIT_WIDTH),
                threads.reason());
    }

    @Test
    void theWidthThatSplitsIsTheBoundItself() {
        assertEquals(1, IntraOpThreads.resolve(0, 16, IntraOpThreads.MIN_SPLIT_VIT_WIDTH - 1).count());
        assertEquals(16, IntraOpThreads.resolve(0, 16, IntraOpThreads.MIN_SPLIT_VIT_WIDTH).count());
        assertEquals(3, IntraOpThreads.resolve(3, 16, 64).count());
    }

    private static IntraOpThreads configure(String setting, Sam3Config model) {
        return EngineFactory.configureThreads(Settings.from(Map.of("SAM3_NUM_THREADS", setting)), model);
    }
}
