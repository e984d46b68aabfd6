package io.sam3stream.schemas.registry;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Schema ids the registry said it does not know, remembered for a short time. A consumer fed records that name an
 * unknown id (corrupt bytes, another cluster's registry, a deliberate flood) would otherwise ask the registry once
 * per record; with this, once per id per {@code ttl}. The memory is short because an id can become known: a
 * producer may register a schema and write with it before the registry's replica this client reads has caught up.
 * Bounded: when full it is cleared, which costs at most one more question per id. Thread-safe.
 */
final class MissingSchemaIds {

    private final long ttlNanos;
    private final int capacity;
    private final LongSupplier nanoClock;
    private final Map<Integer, Long> expiries = new ConcurrentHashMap<>();

    /**
     * @param ttl       how long an id stays known as missing; zero remembers nothing
     * @param capacity  most ids remembered at once
     * @param nanoClock monotonic time in nanoseconds ({@code System::nanoTime})
     */
    MissingSchemaIds(Duration ttl, int capacity, LongSupplier nanoClock) {
        this.ttlNanos = ttl.toNanos();
        this.capacity = capacity;
        this.nanoClock = nanoClock;
    }

    /** Whether the registry said, less than {@code ttl} ago, that it has no schema with this id. */
    boolean contains(int id) {
        Long expiry = expiries.get(id);
        if (expiry == null) {
            return false;
        }
        if (nanoClock.getAsLong() - expiry < 0) {
            return true;
        }
        expiries.remove(id, expiry);
        return false;
    }

    /** Remembers that the registry has no schema with this id. */
    void add(int id) {
        if (ttlNanos <= 0) {
            return;
        }
        if (expiries.size() >= capacity) {
            expiries.clear();
        }
        expiries.put(id, nanoClock.getAsLong() + ttlNanos);
    }
}
