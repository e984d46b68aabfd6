package io.sam3stream.operations;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * The answers to a worker's liveness and readiness probes, kept up to date by the worker as it starts, consumes
 * and stops.
 *
 * <ul>
 *   <li><b>Ready</b> means what READY in the worker's heartbeat means: warm-up finished and the consumer loop is
 *       taking records, and still polling (a stuck loop is not ready either).</li>
 *   <li><b>Live</b> means the process is worth keeping: true while it starts (loading weights and warming up take
 *       minutes, and restarting would only start over) and while it drains; once consuming, true only while the
 *       loop polls within its bound. A worker whose loop ended, or failed, is not live.</li>
 * </ul>
 *
 * The bound on polls is the consumer's {@code max.poll.interval.ms}: the loop polls every few milliseconds, and a
 * loop that has not polled for that long has been given up by the consumer group already.
 */
public final class WorkerHealth {

    /** One probe's answer: whether it passes, the worker's phase, and why it does not pass. */
    public record Probe(boolean passes, String status, String reason) {

        /** The answer as the probe's JSON body. */
        public String json() {
            return reason == null ? "{\"status\":\"" + status + "\"}"
                    : "{\"status\":\"" + status + "\",\"reason\":\"" + escape(reason) + "\"}";
        }

        private static String escape(String text) {
            StringBuilder out = new StringBuilder();
            for (char c : text.toCharArray()) {
                if (c == '"' || c == '\\') {
                    out.append('\\').append(c);
                } else if (c < 0x20) {
                    out.append(String.format("\\u%04x", (int) c));
                } else {
                    out.append(c);
                }
            }
            return out.toString();
        }
    }

    private enum Phase { STARTING, CONSUMING, DRAINING, STOPPED, FAILED }

    private final LongSupplier nanoClock;
    private Phase phase = Phase.STARTING;
    private String step = "starting";
    private Duration pollBound = Duration.ZERO;
    private long lastPollNanos;

    /** Health by the system's monotonic clock. */
    public WorkerHealth() {
        this(System::nanoTime);
    }

    /** @param nanoClock a monotonic clock in nanoseconds */
    public WorkerHealth(LongSupplier nanoClock) {
        this.nanoClock = nanoClock;
    }

    /** Still starting; {@code step} says at what ("loading the engine", "Warming up (1/2) ..."). */
    public synchronized void starting(String step) {
        if (phase == Phase.STARTING) {
            this.step = step;
        }
    }

    /** READY: the loop starts consuming and must poll at least every {@code pollBound} from now on. */
    public synchronized void consuming(Duration pollBound) {
        if (phase == Phase.STARTING) {
            phase = Phase.CONSUMING;
            this.pollBound = pollBound;
            lastPollNanos = nanoClock.getAsLong();
        }
    }

    /** The consumer loop polled. */
    public synchronized void polled() {
        lastPollNanos = nanoClock.getAsLong();
    }

    /** Asked to stop: no new records, the ones in flight are finished. */
    public synchronized void draining() {
        if (phase == Phase.STARTING || phase == Phase.CONSUMING) {
            phase = Phase.DRAINING;
        }
    }

    /** The worker ended: cleanly when {@code failure} is null. */
    public synchronized void stopped(Throwable failure) {
        phase = failure == null ? Phase.STOPPED : Phase.FAILED;
        step = failure == null ? "stopped" : String.valueOf(failure);
    }

    /** The liveness probe's answer now. */
    public synchronized Probe liveness() {
        return switch (phase) {
            case STARTING -> new Probe(true, "starting", null);
            case CONSUMING -> whileConsuming();
            case DRAINING -> new Probe(true, "draining", null);
            case STOPPED, FAILED -> ended();
        };
    }

    /** The readiness probe's answer now. */
    public synchronized Probe readiness() {
        return switch (phase) {
            case STARTING -> new Probe(false, "starting", step);
            case CONSUMING -> whileConsuming();
            case DRAINING -> new Probe(false, "draining", "stopping: finishing the records in flight");
            case STOPPED, FAILED -> ended();
        };
    }

    /** Both probes pass while the loop polls within its bound; a loop that stopped polling is stuck. */
    private Probe whileConsuming() {
        long sincePoll = nanoClock.getAsLong() - lastPollNanos;
        return sincePoll <= pollBound.toNanos() ? new Probe(true, "ready", null)
                : new Probe(false, "stuck", "the consumer loop has not polled for "
                        + Duration.ofNanos(sincePoll).toSeconds() + " s (bound " + pollBound.toSeconds() + " s)");
    }

    private Probe ended() {
        return phase == Phase.FAILED ? new Probe(false, "failed", step)
                : new Probe(false, "stopped", "the consumer loop has ended");
    }
}
