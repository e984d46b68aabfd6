package io.sam3stream.operations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The probes' answers through a worker's life, on a clock the test moves. */
class WorkerHealthTest {

    private static final Duration POLL_BOUND = Duration.ofMinutes(5);

    private final AtomicLong now = new AtomicLong(1_000);
    private final WorkerHealth health = new WorkerHealth(now::get);

    private void advance(Duration d) {
        now.addAndGet(d.toNanos());
    }

    @Test
    void aStartingWorkerIsLiveButNotReadyAndSaysWhatItIsDoing() {
        health.starting("Warming up (1/2) ...");
        assertTrue(health.liveness().passes());
        WorkerHealth.Probe ready = health.readiness();
        assertFalse(ready.passes());
        assertEquals("{\"status\":\"starting\",\"reason\":\"Warming up (1/2) ...\"}", ready.json());
        advance(Duration.ofHours(1)); // warm-up on a slow host: still worth keeping
        assertTrue(health.liveness().passes());
    }

    @Test
    void aConsumingWorkerIsReadyWhileItPollsWithinTheBoundAndStuckAfter() {
        health.consuming(POLL_BOUND);
        assertEquals("{\"status\":\"ready\"}", health.readiness().json());
        advance(POLL_BOUND.minusSeconds(1));
        health.polled();
        advance(POLL_BOUND);
        assertTrue(health.liveness().passes(), "exactly at the bound");
        assertTrue(health.readiness().passes());
        advance(Duration.ofSeconds(1));
        WorkerHealth.Probe live = health.liveness();
        assertFalse(live.passes());
        assertEquals("stuck", live.status());
        assertTrue(live.reason().contains("301 s (bound 300 s)"), live.reason());
        assertFalse(health.readiness().passes(), "a stuck loop takes no records");
        health.polled();
        assertTrue(health.liveness().passes(), "a loop that polls again has recovered");
    }

    @Test
    void aDrainingWorkerIsLiveButNotReadyAndAnEndedOneIsNeither() {
        health.consuming(POLL_BOUND);
        health.draining();
        advance(POLL_BOUND.multipliedBy(2)); // the loop stops polling while it finishes the records in flight
        assertTrue(health.liveness().passes());
        assertEquals("draining", health.readiness().status());
        assertFalse(health.readiness().passes());
        health.stopped(null);
        assertFalse(health.liveness().passes());
        assertEquals("stopped", health.readiness().status());
    }

    @Test
    void aFailedWorkerFailsBothProbesWithTheCauseQuotedAsJson() {
        health.stopped(new IllegalStateException("fenced by \"worker-2\""));
        WorkerHealth.Probe live = health.liveness();
        assertFalse(live.passes());
        assertEquals("{\"status\":\"failed\",\"reason\":\"java.lang.IllegalStateException: fenced by"
                + " \\\"worker-2\\\"\"}", live.json());
        assertFalse(health.readiness().passes());
        health.consuming(POLL_BOUND); // a late READY cannot revive it
        assertFalse(health.readiness().passes());
    }
}
