package io.sam3stream.reliability;

import io.sam3stream.facade.FacadeServer;

/** Reads one of the facade's gauges from its Prometheus exposition, as a scraper would. */
final class FacadeGauges {

    /** Predictions holding an in-flight place. */
    static final String IN_FLIGHT = "sam3_predict_in_flight";
    /** Calls waiting for a Kafka reply. */
    static final String PENDING_REPLIES = "sam3_replies_pending";

    private FacadeGauges() {}

    static double read(FacadeServer facade, String name) {
        for (String line : facade.metrics().scrape().split("\n")) {
            if (line.startsWith(name + " ") || line.startsWith(name + "{")) {
                return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        throw new AssertionError("the facade exposes no gauge " + name);
    }
}
