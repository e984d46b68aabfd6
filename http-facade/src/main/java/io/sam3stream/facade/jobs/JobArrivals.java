package io.sam3stream.facade.jobs;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Submissions waiting to become readable in this instance's view, so that {@code POST /v1/jobs} answers only once
 * a {@code GET} on the same instance finds the job (read-your-writes) without polling the store.
 */
final class JobArrivals {

    private final ConcurrentMap<String, CompletableFuture<Void>> waiting = new ConcurrentHashMap<>();

    /** Completes when the job appears in the view; pass it to {@link #forget} if it is given up. */
    CompletableFuture<Void> expect(String id) {
        return waiting.computeIfAbsent(id, k -> new CompletableFuture<>());
    }

    /** A job has appeared in the view. */
    void arrived(String id) {
        CompletableFuture<Void> future = waiting.remove(id);
        if (future != null) {
            future.complete(null);
        }
    }

    /** Stops waiting for one id (its wait ended some other way). */
    void forget(String id, CompletableFuture<Void> future) {
        waiting.remove(id, future);
    }

    /** Ids still awaited (bounded by the submissions in flight). */
    int size() {
        return waiting.size();
    }
}
