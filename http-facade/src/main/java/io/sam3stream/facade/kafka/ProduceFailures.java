package io.sam3stream.facade.kafka;

import io.sam3stream.facade.http.ApiException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.SerializationException;

/** What a failure to produce a request (a prediction or a job submission) means to the HTTP client. */
public final class ProduceFailures {

    private ProduceFailures() {
    }

    /**
     * 413 when the record is over the message limit, 503 when the broker or the schema registry cannot be reached
     * (the same request may succeed later), 500 otherwise.
     */
    public static ApiException toApi(Throwable error) {
        if (error instanceof ApiException api) {
            return api;
        }
        if (error instanceof RecordTooLargeException) {
            return ApiException.payloadTooLarge("the request does not fit a Kafka record: " + error.getMessage());
        }
        if (error instanceof RetriableException || error instanceof SerializationException) {
            return ApiException.unavailable("the request could not be produced: " + error.getMessage());
        }
        return ApiException.internal("the request could not be produced: " + error);
    }
}
