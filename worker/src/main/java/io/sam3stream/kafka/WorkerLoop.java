package io.sam3stream.kafka;

import io.sam3stream.operations.WorkerHealth;
import io.sam3stream.operations.WorkerMetrics;
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
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.CloseOptions.GroupMembershipOperation;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.OutOfOrderSequenceException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The worker's consume-process-produce loop with exactly-once delivery.
 *
 * <p>Plain clients rather than Kafka Streams: a Streams task processes one record at a time on its thread, which
 * would leave the device idle while the host decodes the next image and encodes the last one's masks, and its
 * dead-letter support covers deserialization only. Here records move through a {@link RecordPipeline} (host stages
 * overlap the device's forward), and the loop thread alone touches the consumer and the transactional producer.
 * Outcomes are published strictly in consumption order, each batch in one transaction together with its consumed
 * offsets (exactly-once v2, KIP-447), so a worker killed at any point leaves a {@code read_committed} reader exactly
 * one outcome per request: a record is either committed with its outcome or read again.
 *
 * <p>While records wait in the pipeline the loop keeps polling, with its partitions paused when the pipeline is
 * full, so a forward of tens of seconds never exceeds {@code max.poll.interval.ms} and never triggers a rebalance.
 */
public final class WorkerLoop implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(WorkerLoop.class);

    /** Longest poll when nothing happens; a finished record wakes the poll at once. */
    private static final Duration POLL = Duration.ofMillis(100);

    /** Longest wait for the producer's last sends when it closes. */
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);

    /** Commits that time out are repeated (an abort is not allowed after one) this many times before giving up. */
    private static final int COMMIT_ATTEMPTS = 3;

    private record InFlight(ConsumerRecord<byte[], byte[]> record, CompletableFuture<Outcome> outcome) {
        TopicPartition partition() {
            return new TopicPartition(record.topic(), record.partition());
        }
    }

    private final Consumer<byte[], byte[]> consumer;
    private final Producer<byte[], byte[]> producer;
    private final RecordPipeline pipeline;
    private final String requestTopic;
    private final Duration drainTimeout;
    private final WorkerMetrics metrics;
    private final WorkerHealth health;
    private final Deque<ConsumerRecord<byte[], byte[]>> backlog = new ArrayDeque<>();
    private final Deque<InFlight> inFlight = new ArrayDeque<>();
    private final AtomicBoolean accepting = new AtomicBoolean(true);
    private final AtomicLong published = new AtomicLong();
    private final AtomicLong deadLettered = new AtomicLong();

    /**
     * @param consumer     a consumer with auto-commit off and {@code read_committed} isolation, not yet subscribed;
     *                     owned (and closed) by this loop
     * @param producer     a transactional producer whose {@code initTransactions} has not been called; owned (and
     *                     closed) by this loop
     * @param pipeline     turns records into outcomes
     * @param requestTopic topic to consume
     * @param drainTimeout longest wait for in-flight records when partitions are revoked or the worker stops
     * @param metrics      told the records consumed, the commit times and every committed outcome
     * @param health       told of every poll (the liveness probe's sign of progress)
     */
    public WorkerLoop(Consumer<byte[], byte[]> consumer, Producer<byte[], byte[]> producer, RecordPipeline pipeline,
            String requestTopic, Duration drainTimeout, WorkerMetrics metrics, WorkerHealth health) {
        this.consumer = consumer;
        this.producer = producer;
        this.pipeline = pipeline;
        this.requestTopic = requestTopic;
        this.drainTimeout = drainTimeout;
        this.metrics = metrics;
        this.health = health;
    }

    /**
     * Consumes until {@link #stop} is called, then finishes and publishes the records in flight, leaves the group
     * (so its partitions move to the other workers at once) and closes both clients.
     *
     * @throws CannotCommitException when the producer can no longer commit; the clients are closed all the same
     */
    @Override
    public void run() {
        boolean clean = false;
        try {
            producer.initTransactions();
            consumer.subscribe(List.of(requestTopic), new Rebalance());
            while (accepting.get()) {
                try {
                    ConsumerRecords<byte[], byte[]> polled = consumer.poll(POLL);
                    metrics.consumed(polled.count());
                    polled.forEach(backlog::add);
                } catch (WakeupException e) {
                    // stop() or a finished record woke us; records this poll fetched are fetched again next time
                }
                health.polled();
                if (!accepting.get()) {
                    break; // records polled after stop() are not started
                }
                admit();
                publishCompleted();
                applyBackPressure();
            }
            backlog.clear(); // never started; the partition's next owner reads them from the committed offset
            awaitInFlight();
            publishCompleted();
            clean = true;
            LOG.info("worker loop stopped after publishing {} outcomes ({} dead letters)", published.get(),
                    deadLettered.get());
        } finally {
            // a clean stop hands the partitions over now; a failed worker stays in the group until it restarts (its
            // static membership keeps its partitions for it) or its session times out
            consumer.close(CloseOptions.groupMembershipOperation(
                    clean ? GroupMembershipOperation.LEAVE_GROUP : GroupMembershipOperation.DEFAULT));
            producer.close(CLOSE_TIMEOUT);
        }
    }

    /** Stops taking new records; the loop finishes and publishes what is in flight, then {@link #run} returns. */
    public void stop() {
        accepting.set(false);
        consumer.wakeup();
    }

    private void admit() {
        while (!backlog.isEmpty() && inFlight.size() < pipeline.capacity()) {
            ConsumerRecord<byte[], byte[]> r = backlog.poll();
            CompletableFuture<Outcome> outcome = pipeline.submit(r);
            // publish as soon as it is ready rather than when the poll times out: that wait would be pure latency
            outcome.whenComplete((done, failure) -> consumer.wakeup());
            inFlight.add(new InFlight(r, outcome));
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
        List<Outcome> outcomes = batch.stream().map(WorkerLoop::outcomeOf).toList();
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        try {
            producer.beginTransaction();
            for (int i = 0; i < batch.size(); i++) {
                Outcome o = outcomes.get(i);
                producer.send(new ProducerRecord<>(o.topic(), o.partition(), o.key(), o.value(), o.headers()));
                // records of one partition are in offset order, so the last one put is the highest
                offsets.put(batch.get(i).partition(), new OffsetAndMetadata(batch.get(i).record().offset() + 1));
            }
            producer.sendOffsetsToTransaction(offsets, consumer.groupMetadata());
            commit();
        } catch (ProducerFencedException | InvalidProducerEpochException | OutOfOrderSequenceException
                | UnsupportedVersionException | AuthorizationException fatal) {
            // another instance with our transactional id took over, or the cluster refuses us: nothing we commit
            // from here on would count, so stop and let the supervisor restart the worker
            throw new CannotCommitException("transactional producer can no longer commit: " + fatal, fatal);
        } catch (KafkaException abortable) {
            // typically a rebalance moved a partition away (the group generation in the offsets is stale)
            LOG.warn("transaction failed, aborting it and reading {} records again: {}", batch.size(),
                    abortable.toString());
            abort();
            rewind(batch);
            return;
        }
        published.addAndGet(batch.size());
        deadLettered.addAndGet(outcomes.stream().filter(Outcome::deadLetter).count());
        outcomes.forEach(o -> metrics.published(o.verdict()));
    }

    private void commit() {
        for (int attempt = 1; ; attempt++) {
            try {
                long start = System.nanoTime();
                producer.commitTransaction();
                metrics.committed(Duration.ofNanos(System.nanoTime() - start));
                return;
            } catch (org.apache.kafka.common.errors.TimeoutException e) {
                // the commit may or may not have reached the coordinator; only repeating it is allowed
                if (attempt == COMMIT_ATTEMPTS) {
                    throw new CannotCommitException("commit timed out " + attempt + " times", e);
                }
                LOG.warn("commit timed out, repeating it: {}", e.toString());
            }
        }
    }

    private void abort() {
        try {
            producer.abortTransaction();
        } catch (KafkaException e) {
            throw new CannotCommitException("transaction can be neither committed nor aborted: " + e, e);
        }
    }

    private static Outcome outcomeOf(InFlight f) {
        try {
            return f.outcome().getNow(null);
        } catch (RuntimeException e) {
            // a pipeline completes every future normally; publishing past a lost outcome would drop the request
            throw new IllegalStateException("the pipeline failed record " + f.partition() + "@"
                    + f.record().offset(), e);
        }
    }

    /**
     * After an aborted transaction: forget everything not yet committed and seek back, so the records are
     * consumed and processed again. Outcomes of records still in the pipeline are dropped when they finish.
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
            try {
                f.outcome().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                LOG.warn("gave up waiting for in-flight records after {}; they will be read again", drainTimeout);
                return;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (ExecutionException e) {
                return; // reported when it is published
            }
        }
    }

    private void dropPartitions(Collection<TopicPartition> partitions) {
        Set<TopicPartition> gone = new HashSet<>(partitions);
        backlog.removeIf(r -> gone.contains(new TopicPartition(r.topic(), r.partition())));
        inFlight.removeIf(f -> gone.contains(f.partition()));
    }

    /**
     * On a revocation the records we already hold are finished and committed (a forward is too expensive to throw
     * away); their un-started backlog is dropped and will be read by the new owner from the committed offset. Lost
     * partitions (we were fenced out of the group) cannot be committed: everything of theirs is dropped and the new
     * owner repeats it.
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
