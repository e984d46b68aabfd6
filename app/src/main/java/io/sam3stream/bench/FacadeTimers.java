package io.sam3stream.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The facade's own timers, read from its Prometheus {@code /metrics}: how many {@code POST /predict} calls were
 * answered 200 and how long they spent in the handler, in the Kafka round trip, waiting for the worker and in the
 * worker. Two readings, before and after a load, give the mean of each part over that load, which splits the
 * overhead the load generator measures into where it arises.
 */
public final class FacadeTimers {

    private static final String HANDLER =
            "sam3_http_requests_seconds_%s{method=\"POST\",route=\"/predict\",status=\"200\"}";
    private static final String ROUND_TRIP = "sam3_kafka_round_trip_seconds_%s";
    private static final String STAGE = "sam3_worker_stage_seconds_%s{stage=\"%s\"}";

    /**
     * Mean milliseconds per answered call between two readings.
     *
     * @param calls     {@code 200} answers of the handler between the readings
     * @param handler   in the facade's {@code /predict} handler, from the request to the response
     * @param roundTrip from producing the request to its reply arriving
     * @param queue     the worker's {@code timing_ms.queue}
     * @param worker    the worker's {@code timing_ms.total}
     */
    public record Split(long calls, double handler, double roundTrip, double queue, double worker) {

        /**
         * Handler time outside the Kafka round trip: reading, validating and encoding the request, rendering the
         * result.
         */
        public double facadeWork() {
            return handler - roundTrip;
        }

        /** Round trip after the result is ready: the worker's transaction commit, the reply's delivery and decoding. */
        public double replyPath() {
            return roundTrip - queue - worker;
        }
    }

    private final Map<String, Double> values;

    private FacadeTimers(Map<String, Double> values) {
        this.values = values;
    }

    /** Reads the facade's timers, or nothing when its {@code /metrics} does not answer 200 (e.g. it wants a key). */
    public static Optional<FacadeTimers> read(URI base) throws InterruptedException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(base.resolve("/metrics"))
                    .timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200 ? Optional.of(parse(r.body())) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** Parses Prometheus text exposition: every {@code name{labels} value} sample line. */
    static FacadeTimers parse(String exposition) {
        Map<String, Double> values = new HashMap<>();
        for (String line : exposition.split("\n")) {
            int space = line.lastIndexOf(' ');
            if (line.isBlank() || line.startsWith("#") || space < 0) {
                continue;
            }
            try {
                values.put(line.substring(0, space), Double.parseDouble(line.substring(space + 1)));
            } catch (NumberFormatException notASample) {
                // not a sample line; nothing to read from it
            }
        }
        return new FacadeTimers(values);
    }

    /** The means of each part over the calls answered since {@code before}, each over its own count. */
    public Split since(FacadeTimers before) {
        return new Split(Math.round(delta(before, HANDLER.formatted("count"))),
                meanMillis(before, HANDLER),
                meanMillis(before, ROUND_TRIP),
                meanMillis(before, STAGE.formatted("%s", "queue")),
                meanMillis(before, STAGE.formatted("%s", "total")));
    }

    private double meanMillis(FacadeTimers before, String timer) {
        double count = delta(before, timer.formatted("count"));
        return count == 0 ? Double.NaN : 1e3 * delta(before, timer.formatted("sum")) / count;
    }

    private double delta(FacadeTimers before, String sample) {
        return values.getOrDefault(sample, 0.0) - before.values.getOrDefault(sample, 0.0);
    }
}
