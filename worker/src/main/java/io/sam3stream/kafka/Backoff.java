package io.sam3stream.kafka;

import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Retries a call that fails because something it depends on is unreachable (the schema registry, the brokers),
 * with exponentially growing pauses and no limit on the attempts: a record must not be lost, or dead-lettered,
 * because a dependency was down for a while. The worker stops the retrying by interrupting the thread.
 */
final class Backoff {

    private static final Logger LOG = LoggerFactory.getLogger(Backoff.class);

    private final Duration first;
    private final Duration max;

    /**
     * @param first pause after the first failure
     * @param max   longest pause
     */
    Backoff(Duration first, Duration max) {
        this.first = first;
        this.max = max;
    }

    /**
     * {@code action}'s value, calling it again after each failure that {@code retriable} accepts; other failures
     * are thrown as they are.
     *
     * @throws CancellationException when the thread is interrupted while waiting for the next attempt
     */
    <T> T retry(String what, Supplier<T> action, Predicate<RuntimeException> retriable) {
        Duration pause = first;
        for (int attempt = 1; ; attempt++) {
            try {
                return action.get();
            } catch (RuntimeException e) {
                if (!retriable.test(e)) {
                    throw e;
                }
                LOG.warn("{} failed (attempt {}), trying again in {} ms: {}", what, attempt, pause.toMillis(),
                        e.toString());
            }
            try {
                Thread.sleep(pause.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new CancellationException(what + ": stopped while waiting to try again");
            }
            pause = pause.multipliedBy(2).compareTo(max) > 0 ? max : pause.multipliedBy(2);
        }
    }
}
