package io.sam3stream.facade.workers;

import io.sam3stream.avro.WorkerState;
import io.sam3stream.avro.WorkerStatus;
import java.time.Clock;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The latest status of every worker, from the heartbeat topic. A worker serves only while its latest status is
 * READY and fresh: a worker that dies without saying so (killed, cut off) stops counting once
 * {@value #MISSED_HEARTBEATS} of its heartbeat intervals pass without a newer status.
 */
public final class WorkerDirectory {

    /** Heartbeats a worker may miss (a slow producer, a GC pause) before it is taken for gone. */
    static final int MISSED_HEARTBEATS = 3;

    private final Clock clock;
    private final Map<String, WorkerStatus> latest = new ConcurrentHashMap<>();

    public WorkerDirectory(Clock clock) {
        this.clock = clock;
    }

    /** Records a worker's status unless a newer one is already known (the topic may be re-read). */
    public void update(WorkerStatus status) {
        latest.merge(status.getWorkerId(), status,
                (known, incoming) -> incoming.getTimestamp().isBefore(known.getTimestamp()) ? known : incoming);
    }

    /** Forgets a worker (a tombstone on the heartbeat topic). */
    public void remove(String workerId) {
        latest.remove(workerId);
    }

    /** Workers that are READY with a fresh heartbeat, by worker id. */
    public List<WorkerStatus> ready() {
        long now = clock.millis();
        return latest.values().stream()
                .filter(s -> s.getState() == WorkerState.READY && isFresh(s, now))
                .sorted(Comparator.comparing(WorkerStatus::getWorkerId))
                .toList();
    }

    /** Whether at least one worker can take a request now. */
    public boolean anyReady() {
        long now = clock.millis();
        return latest.values().stream().anyMatch(s -> s.getState() == WorkerState.READY && isFresh(s, now));
    }

    private static boolean isFresh(WorkerStatus status, long now) {
        long age = now - status.getTimestamp().toEpochMilli();
        return age <= (long) MISSED_HEARTBEATS * Math.max(1, status.getHeartbeatIntervalMs());
    }
}
