package io.sam3stream.model.nn;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Wall time per model module, for benchmarks: the model calls {@link #lap} as each module finishes (names as in
 * upstream's performance anchor: {@code vit_trunk}, {@code neck}, {@code text_encoder}, {@code geometry_encoder},
 * {@code fusion_encoder}, {@code decoder}, {@code dot_prod_scoring}, {@code segmentation_head}), and a clock
 * started on the same thread charges the time since the previous lap to that module. Without a clock a lap costs
 * one thread-local read. libtorch's CPU operators return when their result is complete, so laps are exact.
 */
public final class ModuleClock implements AutoCloseable {

    private static final ThreadLocal<ModuleClock> CURRENT = new ThreadLocal<>();

    private final Map<String, Double> seconds = new LinkedHashMap<>();
    private final ModuleClock previous;
    private long last;

    private ModuleClock(ModuleClock previous) {
        this.previous = previous;
        this.last = System.nanoTime();
    }

    /** Starts a clock on the calling thread; it counts until closed. */
    public static ModuleClock start() {
        ModuleClock clock = new ModuleClock(CURRENT.get());
        CURRENT.set(clock);
        return clock;
    }

    /** Charges the time since the previous lap (or since {@link #resume}) to {@code module}. */
    public static void lap(String module) {
        ModuleClock clock = CURRENT.get();
        if (clock != null) {
            long now = System.nanoTime();
            clock.seconds.merge(module, (now - clock.last) / 1e9, Double::sum);
            clock.last = now;
        }
    }

    /** Starts the next lap now: time since the last lap is charged to no module. */
    public void resume() {
        last = System.nanoTime();
    }

    /** Seconds per module, in the order modules first finished. */
    public Map<String, Double> seconds() {
        return Collections.unmodifiableMap(seconds);
    }

    /** Stops counting; an enclosing clock on this thread counts again. */
    @Override
    public void close() {
        CURRENT.set(previous);
    }
}
