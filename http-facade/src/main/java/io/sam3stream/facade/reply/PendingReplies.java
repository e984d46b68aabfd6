package io.sam3stream.facade.reply;

import io.sam3stream.avro.ErrorCode;
import io.sam3stream.facade.http.ApiException;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The calls waiting for a reply, by correlation id. Each call ends exactly once: with its reply, at its deadline
 * (504), or failed (its request could not be produced, its reply partition moved away, the facade stops). An entry
 * is removed the moment its call ends, so the table never holds more than the calls in flight, and a reply that
 * arrives afterwards finds nobody: it is dropped and counted, never handed to another caller.
 */
public final class PendingReplies {

    private final int capacity;
    private final ScheduledExecutorService deadlines;
    private final ReplyEvents events;
    private final Map<String, Pending> pending = new ConcurrentHashMap<>();
    /** Ids of calls that ended without their reply, so that a reply arriving later counts as late. */
    private final Map<String, Boolean> recentlyEnded;

    private static final class Pending {
        final CompletableFuture<byte[]> reply = new CompletableFuture<>();
        final int partition;
        final long startNanos = System.nanoTime();
        /** Set right after the entry is published; an entry ended before that leaves a task that finds nothing. */
        volatile ScheduledFuture<?> deadline;

        Pending(int partition) {
            this.partition = partition;
        }

        void cancelDeadline() {
            ScheduledFuture<?> d = deadline;
            if (d != null) {
                d.cancel(false);
            }
        }
    }

    /**
     * @param capacity  most calls waiting at once
     * @param deadlines runs the deadline of each call (one thread suffices)
     * @param events    told about deliveries and drops
     */
    public PendingReplies(int capacity, ScheduledExecutorService deadlines, ReplyEvents events) {
        this.capacity = capacity;
        this.deadlines = deadlines;
        this.events = events;
        int remembered = 4 * capacity;
        this.recentlyEnded = new LinkedHashMap<>(16, 0.75f, false) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
                return size() > remembered;
            }
        };
    }

    /**
     * Starts waiting for the reply with this correlation id.
     *
     * @param correlationId unique per call
     * @param partition     the reply partition the request names
     * @param timeout       after this the call ends with 504
     * @return the reply's value bytes
     */
    public CompletableFuture<byte[]> register(String correlationId, int partition, Duration timeout) {
        if (pending.size() >= capacity) {
            throw ApiException.tooManyRequests("too many calls waiting for replies", 1);
        }
        Pending p = new Pending(partition);
        if (pending.putIfAbsent(correlationId, p) != null) {
            throw new IllegalArgumentException("correlation id " + correlationId + " is already waiting");
        }
        p.deadline = deadlines.schedule(() -> end(correlationId, ApiException.of(ErrorCode.DEADLINE_EXCEEDED,
                "no reply within " + timeout.toMillis() + " ms")), timeout.toNanos(), TimeUnit.NANOSECONDS);
        return p.reply;
    }

    /**
     * Hands a reply to its caller.
     *
     * @return whether someone was waiting for it
     */
    public boolean deliver(String correlationId, byte[] value) {
        Pending p = correlationId == null ? null : pending.remove(correlationId);
        if (p == null) {
            events.dropped(wasRecentlyEnded(correlationId) ? ReplyEvents.DropReason.LATE
                    : ReplyEvents.DropReason.UNKNOWN);
            return false;
        }
        p.cancelDeadline();
        events.delivered(Duration.ofNanos(System.nanoTime() - p.startNanos));
        p.reply.complete(value);
        return true;
    }

    /** Ends one call with an error (its request could not be produced). */
    public void fail(String correlationId, RuntimeException error) {
        end(correlationId, error);
    }

    /** Ends every call whose reply was to come on one of these partitions (they are no longer read here). */
    public void failPartitions(Collection<Integer> partitions, RuntimeException error) {
        pending.forEach((id, p) -> {
            if (partitions.contains(p.partition)) {
                end(id, error);
            }
        });
    }

    /** Ends every call (the facade stops). */
    public void failAll(RuntimeException error) {
        pending.keySet().forEach(id -> end(id, error));
    }

    /** Calls waiting now. */
    public int size() {
        return pending.size();
    }

    private void end(String correlationId, RuntimeException error) {
        Pending p = pending.remove(correlationId);
        if (p == null) {
            return; // already ended
        }
        p.cancelDeadline();
        synchronized (recentlyEnded) {
            recentlyEnded.put(correlationId, Boolean.TRUE);
        }
        p.reply.completeExceptionally(error);
    }

    private boolean wasRecentlyEnded(String correlationId) {
        if (correlationId == null) {
            return false;
        }
        synchronized (recentlyEnded) {
            return recentlyEnded.remove(correlationId) != null;
        }
    }
}
