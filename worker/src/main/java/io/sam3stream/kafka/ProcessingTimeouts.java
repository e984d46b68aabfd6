package io.sam3stream.kafka;

import java.time.Duration;

/**
 * The Kafka timeouts that depend on how slow this worker is, derived from what it measured while starting: a
 * forward on its device can take tens of seconds, and a slow record must never look like a dead consumer (a
 * rebalance, a repeated record) to the group.
 *
 * <p>Where each one bites in {@link WorkerLoop}:
 * <ul>
 *   <li>The loop polls every few milliseconds whatever the pipeline does, so {@code max.poll.interval.ms} only has
 *       to cover the one place it stops polling: a revocation, which first finishes the records in flight (up to
 *       {@link #drain()}).</li>
 *   <li>A transaction only spans the publication of finished records, never a forward, so the transaction timeout
 *       does not grow with the forward time; it only has to outlast a broker that is slow to take the sends.</li>
 *   <li>Heartbeats come from the consumer's own thread, so the session timeout is not about slow records either: it
 *       is how long a static member's partitions wait for it. A worker that restarts within it (a crash, a
 *       redeploy) takes its partitions back without a rebalance, so it covers one start-up as measured now.</li>
 * </ul>
 *
 * @param forward          the slowest measured forward (the warm-up's, or a conservative guess without one)
 * @param startup          how long this worker took from start to READY
 * @param pipelineCapacity records that can be in the pipeline at once
 */
public record ProcessingTimeouts(Duration forward, Duration startup, int pipelineCapacity) {

    /** Assumed forward time when no warm-up forward was measured: a full-size CPU forward with room to spare. */
    public static final Duration UNMEASURED_FORWARD = Duration.ofSeconds(60);

    /** Kafka's default session timeout; a lower bound so that a fast worker keeps the usual failure detection. */
    static final Duration MIN_SESSION = Duration.ofSeconds(45);

    /** The brokers' default {@code group.max.session.timeout.ms}: a longer session would be refused. */
    static final Duration MAX_SESSION = Duration.ofMinutes(30);

    /** Kafka's default transaction timeout, ample for publishing a few finished records. */
    static final Duration TRANSACTION = Duration.ofMinutes(1);

    /** Slack for the work of a drain that is not a forward: decoding, post-processing, the commit. */
    private static final Duration DRAIN_SLACK = Duration.ofSeconds(30);

    /** Kafka's default {@code max.poll.interval.ms}; a lower bound. */
    private static final Duration MIN_POLL_INTERVAL = Duration.ofMinutes(5);

    /**
     * Longest wait for the records in flight to finish, on a revocation or a stop: each one's forward, twice over
     * (a forward can run slower than in the warm-up when the host is busy), plus slack.
     */
    public Duration drain() {
        return forward.multipliedBy(2L * pipelineCapacity).plus(DRAIN_SLACK);
    }

    /** {@code max.poll.interval.ms}: a drain inside a revocation callback must fit, with the same slack again. */
    public Duration maxPollInterval() {
        return max(MIN_POLL_INTERVAL, drain().plus(DRAIN_SLACK));
    }

    /** {@code session.timeout.ms}: one more start-up like this one, with half again for a slower host. */
    public Duration session() {
        Duration restart = startup.plus(startup.dividedBy(2));
        return restart.compareTo(MAX_SESSION) > 0 ? MAX_SESSION : max(MIN_SESSION, restart);
    }

    /** {@code transaction.timeout.ms}. */
    public Duration transaction() {
        return TRANSACTION;
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }
}
