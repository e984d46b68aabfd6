package io.sam3stream.facade.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.sam3stream.avro.Timing;
import io.sam3stream.facade.reply.ReplyEvents;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The facade's meters, scraped as Prometheus text from {@code /metrics}: HTTP requests by route and status with
 * their latency, the worker's stage times of every answered request (from {@code timing_ms}), the Kafka round
 * trip, dropped replies, and gauges of the requests in flight, READY workers and owned reply partitions.
 */
public final class FacadeMetrics implements ReplyEvents {

    /** Latencies span a cached CPU answer (milliseconds) to a slow forward near the deadline (minutes). */
    private static final Duration MIN_LATENCY = Duration.ofMillis(1);
    private static final Duration MAX_LATENCY = Duration.ofMinutes(10);

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final Timer roundTrip;
    private final Map<DropReason, Counter> dropped = new EnumMap<>(DropReason.class);

    public FacadeMetrics() {
        roundTrip = histogram(Timer.builder("sam3.kafka.round.trip")
                .description("From producing a request to its reply reaching the facade"))
                .register(registry);
        for (DropReason reason : DropReason.values()) {
            dropped.put(reason, Counter.builder("sam3.replies.dropped")
                    .description("Replies no caller was waiting for")
                    .tag("reason", reason.name().toLowerCase(Locale.ROOT))
                    .register(registry));
        }
    }

    /** Publishes a gauge read on every scrape. */
    public void gauge(String name, String description, Supplier<Number> value) {
        Gauge.builder(name, value).description(description).register(registry);
    }

    /** One finished HTTP request. */
    public void request(String method, String route, int status, Duration duration) {
        histogram(Timer.builder("sam3.http.requests")
                .description("HTTP requests by route and status, end to end")
                .tag("method", method)
                .tag("route", route)
                .tag("status", Integer.toString(status)))
                .register(registry)
                .record(duration);
    }

    /** The worker's stage times of one answered request. */
    public void stages(Timing timing) {
        stage("queue", timing.getQueue());
        stage("decode", timing.getDecode());
        stage("preprocess", timing.getPreprocess());
        stage("forward", timing.getForward());
        stage("postprocess", timing.getPostprocess());
        stage("total", timing.getTotal());
    }

    @Override
    public void delivered(Duration roundTripTime) {
        roundTrip.record(roundTripTime);
    }

    @Override
    public void dropped(DropReason reason) {
        dropped.get(reason).increment();
    }

    /** Count of dropped replies of one reason so far. */
    public double droppedCount(DropReason reason) {
        return dropped.get(reason).count();
    }

    /** The Prometheus text exposition of every meter. */
    public String scrape() {
        return registry.scrape();
    }

    private void stage(String stage, double millis) {
        histogram(Timer.builder("sam3.worker.stage")
                .description("Time a worker spent in one stage of a request (timing_ms)")
                .tag("stage", stage))
                .register(registry)
                .record(Duration.ofNanos(Math.round(millis * 1e6)));
    }

    private static Timer.Builder histogram(Timer.Builder builder) {
        return builder.publishPercentileHistogram().minimumExpectedValue(MIN_LATENCY)
                .maximumExpectedValue(MAX_LATENCY);
    }
}
