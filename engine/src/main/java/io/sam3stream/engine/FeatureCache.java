package io.sam3stream.engine;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A bounded least-recently-used cache of model features that closes what it evicts (features hold native
 * memory). Used by the single device thread only, so it is not synchronised.
 *
 * @param <K> key (a prompt text, or a hash of decoded pixels)
 * @param <V> cached features
 */
final class FeatureCache<K, V extends AutoCloseable> implements AutoCloseable {

    private final int capacity;
    private final LinkedHashMap<K, V> entries;

    /** @param capacity entries kept; 0 disables caching (every lookup computes, nothing is kept) */
    FeatureCache(int capacity) {
        if (capacity < 0) {
            throw new IllegalArgumentException("capacity must be >= 0");
        }
        this.capacity = capacity;
        this.entries = new LinkedHashMap<>(16, 0.75f, true);
    }

    /** The cached value for {@code key}, or null; a hit makes the entry the most recently used. */
    V get(K key) {
        return entries.get(key);
    }

    /**
     * Keeps {@code value} under {@code key}, evicting (and closing) the least recently used entry when full.
     * Returns false, keeping nothing, when caching is disabled: the caller then owns the value.
     */
    boolean put(K key, V value) {
        if (capacity == 0) {
            return false;
        }
        V previous = entries.put(key, value);
        if (previous != null && previous != value) {
            closeQuietly(previous);
        }
        evictDownTo(capacity);
        return true;
    }

    /**
     * Evicts (and closes) the least recently used entry when the cache is full, so that a value about to be
     * computed for a missing key does not coexist with the entry its {@link #put} would evict: at full size an
     * image's features are 0.07 GB, which would otherwise be held twice at the peak of the forward that computes
     * the new one. What stays is what the later put would leave.
     */
    void makeRoom() {
        evictDownTo(capacity - 1);
    }

    private void evictDownTo(int size) {
        while (entries.size() > Math.max(size, 0)) {
            Map.Entry<K, V> eldest = entries.entrySet().iterator().next();
            entries.remove(eldest.getKey());
            closeQuietly(eldest.getValue());
        }
    }

    int size() {
        return entries.size();
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception e) {
            throw new IllegalStateException("cannot release cached features", e);
        }
    }

    @Override
    public void close() {
        entries.values().forEach(FeatureCache::closeQuietly);
        entries.clear();
    }
}
