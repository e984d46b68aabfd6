package io.sam3stream.facade.workers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sam3stream.avro.WorkerLimits;
import io.sam3stream.avro.WorkerState;
import io.sam3stream.avro.WorkerStatus;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

class WorkerDirectoryTest {

    private static final Instant T0 = Instant.parse("2026-11-01T12:00:00Z");
    private static final int INTERVAL_MS = 1000;

    private Instant now = T0;
    private final WorkerDirectory directory = new WorkerDirectory(new Clock() {
        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    });

    @Test
    void aReadyWorkerCountsUntilThreeHeartbeatIntervalsPassWithoutNews() {
        directory.update(status("w1", WorkerState.READY, T0));

        now = T0.plusMillis(3 * INTERVAL_MS);
        assertTrue(directory.anyReady());
        now = T0.plusMillis(3 * INTERVAL_MS + 1);
        assertFalse(directory.anyReady());
        assertEquals(List.of(), directory.ready());
    }

    @Test
    void onlyReadyWorkersCount() {
        directory.update(status("w1", WorkerState.STARTING, T0));
        directory.update(status("w2", WorkerState.DRAINING, T0));
        directory.update(status("w3", WorkerState.STOPPED, T0));
        assertFalse(directory.anyReady());

        directory.update(status("w1", WorkerState.READY, T0.plusMillis(10)));
        assertEquals(List.of("w1"), directory.ready().stream().map(WorkerStatus::getWorkerId).toList());
    }

    @Test
    void anOlderStatusReadAgainDoesNotReplaceANewerOne() {
        directory.update(status("w1", WorkerState.STOPPED, T0.plusMillis(500)));
        directory.update(status("w1", WorkerState.READY, T0));

        assertFalse(directory.anyReady());
    }

    @Test
    void aTombstoneForgetsTheWorker() {
        directory.update(status("w1", WorkerState.READY, T0));
        directory.remove("w1");

        assertFalse(directory.anyReady());
    }

    private static WorkerStatus status(String id, WorkerState state, Instant at) {
        return WorkerStatus.newBuilder().setWorkerId(id).setState(state).setBackend("cpu").setDevice("cpu")
                .setModelRepo("facebook/sam3").setModelRevision("r").setCheckpointPath(null)
                .setLimits(WorkerLimits.newBuilder().setMaxSide(4096).setMaxPixels(1 << 24).setMaxPrompts(4)
                        .setMaxMessageBytes(1 << 24).build())
                .setSourceCommit(null).setLastForwardMs(null)
                .setHeartbeatIntervalMs(INTERVAL_MS).setTimestamp(at).build();
    }
}
