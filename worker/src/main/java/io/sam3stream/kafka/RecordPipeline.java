package io.sam3stream.kafka;

import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Turns a consumed request record into its {@link Outcome}, asynchronously, so that the worker loop can keep
 * several records in different stages (decode on a CPU thread while another record's forward runs on the device).
 * Implementations complete every future normally until they are closed: failures become ERROR results or dead
 * letters, never exceptional completions, so no record is ever left without an outcome.
 */
public interface RecordPipeline extends AutoCloseable {

    /** Starts processing; the future completes with the record's one outcome. */
    CompletableFuture<Outcome> submit(ConsumerRecord<byte[], byte[]> record);

    /** Records that may be in the pipeline at once (one per stage keeps every stage busy). */
    int capacity();

    @Override
    void close();
}
