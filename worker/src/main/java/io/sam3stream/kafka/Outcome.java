package io.sam3stream.kafka;

import io.sam3stream.operations.Verdict;
import org.apache.kafka.common.header.Headers;

/**
 * What one consumed record turns into: exactly one record to produce, in the same transaction that commits the
 * consumed offset. A result (OK or ERROR) goes to the reply destination; a record that could not be decoded goes
 * to the dead-letter topic.
 *
 * @param topic     destination topic
 * @param partition destination partition, or null to let the partitioner choose by key
 * @param key       record key (the request id for results; the original key for dead letters)
 * @param value     record value (an encoded result, or the original bytes for dead letters)
 * @param headers   record headers
 * @param verdict   what the record came to, as the worker's counters see it once this is committed
 */
public record Outcome(String topic, Integer partition, byte[] key, byte[] value, Headers headers, Verdict verdict) {

    /** True when this is a dead letter rather than a result. */
    public boolean deadLetter() {
        return verdict instanceof Verdict.DeadLettered;
    }
}
