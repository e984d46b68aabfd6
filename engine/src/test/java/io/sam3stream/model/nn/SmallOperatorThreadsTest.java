package io.sam3stream.model.nn;

import static org.junit.jupiter.api.Assertions.assertEquals;

import ai.djl.ndarray.NDManager;
import ai.djl.pytorch.jni.JniUtils;
import org.junit.jupiter.api.Test;

class SmallOperatorThreadsTest {

    @Test
    void oneThreadInsideTheScopeAndThePreviousCountAfter() {
        NDManager.newBaseManager().close(); // loads libtorch
        int before = JniUtils.getNumThreads();
        JniUtils.setNumThreads(2);
        try {
            try (ComputeOptions.Scope one = SmallOperatorThreads.enter(false)) {
                assertEquals(1, JniUtils.getNumThreads());
            }
            assertEquals(2, JniUtils.getNumThreads());
            try (ComputeOptions.Scope off = ComputeOptions.OPTIMIZED.withOpByOpModules().activate();
                    ComputeOptions.Scope unchanged = SmallOperatorThreads.enter(false)) {
                assertEquals(2, JniUtils.getNumThreads(), "the policy is off in the control");
            }
            try (ComputeOptions.Scope every = SmallOperatorThreads.enter(true)) {
                assertEquals(2, JniUtils.getNumThreads(), "threads that sleep at once keep every thread");
            }
        } finally {
            JniUtils.setNumThreads(before);
        }
    }
}
