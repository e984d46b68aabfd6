package io.sam3stream.model.neck;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import io.sam3stream.model.nn.Scopes;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Intermediates of the prompt side that depend on the image alone, kept with a cached image so that every later
 * prompt on it reuses them: the first prompt computes one, the next ones read it. An entry lives in the image's
 * manager and is closed with the image's features.
 *
 * <p>Not thread-safe: one image is grounded by one thread at a time (the worker's device thread).
 */
public final class ImageMemo implements AutoCloseable {

    private final NDManager manager;
    private final Map<String, NDArray> entries = new HashMap<>();

    /** @param manager owns the entries (the manager of the image's features) */
    public ImageMemo(NDManager manager) {
        this.manager = manager;
    }

    /**
     * The entry of {@code key}, computed by {@code compute} the first time. The computation runs in its own scope,
     * so that only the array it returns survives it, and that array belongs to the memo, not to any enclosing
     * scope of the caller.
     *
     * @param key     names the intermediate and the module that owns it
     * @param compute computes the intermediate from the image; must return an array it created
     */
    public NDArray get(String key, Supplier<NDArray> compute) {
        NDArray entry = entries.get(key);
        if (entry != null) {
            return entry;
        }
        entry = Scopes.detach(compute);
        entry.attach(manager);
        entries.put(key, entry);
        return entry;
    }

    /** How many intermediates are held. */
    public int size() {
        return entries.size();
    }

    /** Closes every entry. */
    @Override
    public void close() {
        entries.values().forEach(NDArray::close);
        entries.clear();
    }
}
