package io.sam3stream.facade.http;

import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Admits at most {@code SAM3_MAX_IN_FLIGHT} predictions at once, from reading the body to sending the response,
 * so memory and the reply table stay bounded; the next request is refused at once with 429. Its
 * {@code Retry-After} is the typical time a prediction holds its place, learnt from the ones that finished.
 */
public final class InFlightLimiter {

    /** Weight of the newest hold time in the running average. */
    private static final double SMOOTHING = 0.2;

    private final int capacity;
    private final Semaphore places;
    private volatile double typicalHoldMillis = 1000;

    public InFlightLimiter(int capacity) {
        this.capacity = capacity;
        this.places = new Semaphore(capacity);
    }

    /** A place for one prediction, or 429. Release it exactly when the response is sent. */
    public Permit admit() {
        if (!places.tryAcquire()) {
            throw ApiException.tooManyRequests("more than SAM3_MAX_IN_FLIGHT=" + capacity
                    + " requests are in flight", retryAfterSeconds());
        }
        return new Permit(System.nanoTime());
    }

    /** Predictions holding a place now. */
    public int inFlight() {
        return capacity - places.availablePermits();
    }

    long retryAfterSeconds() {
        return Math.max(1, (long) Math.ceil(typicalHoldMillis / 1000));
    }

    /** One admitted prediction; releasing it twice releases once. */
    public final class Permit {
        private final long admittedNanos;
        private final AtomicBoolean released = new AtomicBoolean();

        private Permit(long admittedNanos) {
            this.admittedNanos = admittedNanos;
        }

        public void release() {
            if (released.compareAndSet(false, true)) {
                double heldMillis = (System.nanoTime() - admittedNanos) / 1e6;
                typicalHoldMillis = (1 - SMOOTHING) * typicalHoldMillis + SMOOTHING * heldMillis;
                places.release();
            }
        }
    }
}
