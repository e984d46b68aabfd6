package io.sam3stream.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class FacadeTimersTest {

    private static String exposition(int calls, double handler, double roundTrip, double queue, double total) {
        return """
                # HELP sam3_http_requests_seconds a help line is no sample
                sam3_http_requests_seconds_count{method="POST",route="/predict",status="200"} %d
                sam3_http_requests_seconds_sum{method="POST",route="/predict",status="200"} %s
                sam3_http_requests_seconds_count{method="POST",route="/predict",status="429"} 7
                sam3_http_requests_seconds_sum{method="POST",route="/predict",status="429"} 0.7
                sam3_kafka_round_trip_seconds_count %d
                sam3_kafka_round_trip_seconds_sum %s
                sam3_worker_stage_seconds_count{stage="queue"} %d
                sam3_worker_stage_seconds_sum{stage="queue"} %s
                sam3_worker_stage_seconds_count{stage="total"} %d
                sam3_worker_stage_seconds_sum{stage="total"} %s
                """.formatted(calls, handler, calls, roundTrip, calls, queue, calls, total);
    }

    @Test
    void meansOverTheCallsBetweenTwoReadingsSplitTheRoundTrip() {
        FacadeTimers before = FacadeTimers.parse(exposition(10, 1.0, 0.8, 0.1, 0.5));
        FacadeTimers after = FacadeTimers.parse(exposition(30, 1.6, 1.2, 0.16, 0.8));

        FacadeTimers.Split split = after.since(before);

        assertEquals(20, split.calls(), "200 answers only");
        assertEquals(30.0, split.handler(), 1e-9);
        assertEquals(20.0, split.roundTrip(), 1e-9);
        assertEquals(3.0, split.queue(), 1e-9);
        assertEquals(15.0, split.worker(), 1e-9);
        assertEquals(10.0, split.facadeWork(), 1e-9);
        assertEquals(2.0, split.replyPath(), 1e-9);
    }

    @Test
    void noCallsMeansNoMean() {
        FacadeTimers reading = FacadeTimers.parse(exposition(5, 1.0, 0.8, 0.1, 0.5));
        assertEquals(Double.NaN, reading.since(reading).handler());
    }
}
