package io.sam3stream.kafka;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.OutOfOrderSequenceException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The worker's consume-process-produce loop with exactly-once delivery.
 *
 * <p>Plain clients rather than Kafka Streams: Streams processes one record at a time per task thread, which would
 * leave the device idle while the host decodes the next image and encodes the last one's masks. Here records move
 * through a {@link RecordPipeline} (CPU stages overlap the device's forward), and the loop thread alone touches the
 * consumer and the transactional producer. Results are published strictly in consumption order, each batch in one
 * transaction together with its consumed offsets (exactly-once v2, KIP-447), so a worker killed at any point leaves
 * a {@code read_committed} reader exactly one outcome per request.
 *
 * <p>While records wait in the pipeline the loop keeps polling with its partitions paused, so a forward of tens of
 * seconds never exceeds {@code max.poll.interval.ms} and never triggers a rebalance.
 */
public final class WorkerLoop implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(WorkerLoop.class);
    private static final Duration POLL = Duration.ofMillis(50);

    private record InFlight(ConsumerRecord<byte[], byte[]> record, CompletableFuture<Outcome> outcome) {}

    private final Consumer<byte[], byte[]> consumer;
    private final Producer<byte[], byte[]> producer;
    private final RecordPipeline pipeline;
    private final String requestTopic;
    private final Duration drainTimeout;
    private final Deque<ConsumerRecord<byte[], byte[]>> backlog = new ArrayDeque<>();
    private final Deque<InFlight> inFlight = new ArrayDeque<>();
    private final AtomicBoolean accepting = new AtomicBoolean(true);
    private final AtomicLong published = new AtomicLong();
    private final AtomicLong deadLettered = new AtomicLong();
    private final CompletableFuture<Void> stopped = new CompletableFuture<>();

    /**
     * @param consumer     a consumer with auto-commit off and {@code read_committed} isolation; not yet subscribed
     * @param producer     a transactional producer whose {@code initTransactions} has not been called
     * @param pipeline     turns records into outcomes
     * @param requestTopic topic to consume
     * @param drainTimeout longest wait for in-flight records when partitions are revoked or the worker stops
     */
    public WorkerLoop(Consumer<byte[], byte[]> consumer, Producer<byte[], byte[]> producer, RecordPipeline pipeline,
            String requestTopic, Duration drainTimeout) {
        this.consumer = consumer;
        this.producer = producer;
        this.pipeline = pipeline;
        this.requestTopic = requestTopic;
        this.drainTimeout = drainTimeout;
    }

    @Override
    public void run() {
        try {
            producer.initTransactions();
            consumer.subscribe(List.of(requestTopic), new Rebalance());
            while (accepting.get()) {
                try {
                    consumer.poll(POLL).forEach(backlog::add);
                } catch (WakeupException e) {
                    continue; // stop() woke us: the loop condition decides
                }
                admit();
                publishCompleted();
                applyBackPressure();
            }
            backlog.clear();
            awaitInFlight();
            publishCompleted();
            stopped.complete(null);
        } catch (RuntimeException | Error e) {
            stopped.completeExceptionally(e);
            throw e;
        }
    }

    /** Stops taking new records; the loop finishes and publishes what is in flight, then {@link #run} returns. */
    public void stop() {
        accepting.set(false);
        consumer.wakeup();
    }

    /** Completes when {@link #run} has returned (exceptionally if the loop failed). */
    public CompletableFuture<Void> stopped() {
        return stopped;
    }

    /** Results and dead letters committed so far. */
    public long publishedCount() {
        return published.get();
    }

    /** Dead letters committed so far. */
    public long deadLetterCount() {
        return deadLettered.get();
    }

    private void admit() {
        while (!backlog.isEmpty() && inFlight.size() < pipeline.capacity()) {
            ConsumerRecord<byte[], byte[]> r = backlog.poll();
            inFlight.add(new InFlight(r, pipeline.submit(r)));
        }
    }

    /** Pauses fetching while records wait for the pipeline, resumes when the backlog is empty. */
    private void applyBackPressure() {
        if (!backlog.isEmpty()) {
            consumer.pause(consumer.assignment());
        } else if (!consumer.paused().isEmpty()) {
            consumer.resume(consumer.paused());
        }
    }

    /** Publishes, in one transaction, every finished record at the head of the in-flight queue. */
    private void publishCompleted() {
        List<InFlight> batch = new ArrayList<>();
        while (!inFlight.isEmpty() && inFlight.peek().outcome().isDone()) {
            batch.add(inFlight.poll());
        }
        if (batch.isEmpty()) {
            return;
        }
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        try {
            producer.beginTransaction();
            for (InFlight f : batch) {
                Outcome o = f.outcome().join();
                producer.send(new ProducerRecord<>(o.topic(), o.partition(), o.key(), o.value(), o.headers()));
                offsets.put(new TopicPartition(f.record().topic(), f.record().partition()),
                        new OffsetAndMetadata(f.record().offset() + 1));
            }
            producer.sendOffsetsToTransaction(offsets, consumer.groupMetadata());
            producer.commitTransaction();
        } catch (ProducerFencedException | InvalidProducerEpochException | OutOfOrderSequenceException
                | UnsupportedVersionException | AuthorizationException fatal) {
            // another instance with our transactional id took over, or the cluster refuses us: nothing we commit
            // from here on would count, so stop and let the supervisor restart the worker
            throw new WorkerFencedException("transactional producer can no longer commit: " + fatal, fatal);
        } catch (KafkaException retriable) {
            LOG.warn("transaction failed, aborting and re-reading {} records: {}", batch.size(), retriable.toString());
            producer.abortTransaction();
            rewind(batch);
            return;
        }
        published.addAndGet(batch.size());
        deadLettered.addAndGet(batch.stream().filter(f -> f.outcome().join().deadLetter()).count());
    }

    /**
     * After an aborted transaction: forget everything not yet committed and seek back, so the records are
     * consumed and processed again. Results of records still in the pipeline are discarded when they finish.
     */
    private void rewind(List<InFlight> aborted) {
        Map<TopicPartition, Long> firstOffset = new HashMap<>();
        List<ConsumerRecord<byte[], byte[]>> uncommitted = new ArrayList<>();
        aborted.forEach(f -> uncommitted.add(f.record()));
        inFlight.forEach(f -> uncommitted.add(f.record()));
        uncommitted.addAll(backlog);
        for (ConsumerRecord<byte[], byte[]> r : uncommitted) {
            firstOffset.merge(new TopicPartition(r.topic(), r.partition()), r.offset(), Math::min);
        }
        inFlight.clear();
        backlog.clear();
        Set<TopicPartition> assigned = consumer.assignment();
        firstOffset.forEach((tp, offset) -> {
            if (assigned.contains(tp)) {
                consumer.seek(tp, offset);
            }
        });
    }

    /** Waits (bounded) until every in-flight record has its outcome. */
    private void awaitInFlight() {
        long deadline = System.nanoTime() + drainTimeout.toNanos();
        for (InFlight f : inFlight) {
            long left = deadline - System.nanoTime();
            try {
                f.outcome().get(Math.max(0, left), TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                LOG.warn("gave up waiting for in-flight records after {}", drainTimeout);
                return;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (ExecutionException e) {
                // the pipeline never completes exceptionally; treat it as finished so it is published
            }
        }
    }

    private void dropPartitions(Collection<TopicPartition> partitions) {
        Set<TopicPartition> gone = new HashSet<>(partitions);
        backlog.removeIf(r -> gone.contains(new TopicPartition(r.topic(), r.partition())));
        inFlight.removeIf(f -> gone.contains(new TopicPartition(f.record().topic(), f.record().partition())));
    }

    /**
     * On a revocation the records we already hold are finished and committed (a CPU forward is too expensive to
     * throw away); their un-started backlog is dropped and will be read by the new owner from the committed
     * offset. Lost partitions (we were fenced out of the group) cannot be committed: everything of theirs is
     * dropped and the new owner repeats it.
     */
    private final class Rebalance implements ConsumerRebalanceListener {
        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            if (partitions.isEmpty()) {
                return;
            }
            Set<TopicPartition> revoked = new HashSet<>(partitions);
            backlog.removeIf(r -> revoked.contains(new TopicPartition(r.topic(), r.partition())));
            awaitInFlight();
            publishCompleted();
            dropPartitions(partitions);
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            // positions come from the committed offsets
        }

        @Override
        public void onPartitionsLost(Collection<TopicPartition> partitions) {
            dropPartitions(partitions);
        }
    }
}
