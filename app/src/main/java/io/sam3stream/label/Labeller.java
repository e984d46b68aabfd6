package io.sam3stream.label;

import java.util.concurrent.CompletableFuture;

/**
 * Where a run's images are segmented. A labeller answers with the reference server's {@code /predict} JSON of the
 * image (masks as compressed RLE), or fails the future with a {@link LabelFailure} that says why.
 */
public interface Labeller extends AutoCloseable {

    /** Starts labelling {@code image}; the caller bounds how many are in flight with {@link #concurrency()}. */
    CompletableFuture<byte[]> label(DatasetImage image, LabelQuery query);

    /** How many images this labeller usefully works on at once. */
    int concurrency();

    /** What the progress line calls it, e.g. "in-process engine" or "http://host:20000". */
    String describe();

    @Override
    void close();
}
