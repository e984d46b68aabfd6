package io.sam3stream.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sam3stream.avro.Status;
import io.sam3stream.operations.Verdict;
import io.sam3stream.operations.WorkerHealth;
import io.sam3stream.operations.WorkerMetrics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The loop's ordering, transaction and hand-over rules, against Kafka's mock clients and a hand-driven pipeline. */
class WorkerLoopTest {

    private static final String TOPIC = "requests";
    private static final TopicPartition P0 = new TopicPartition(TOPIC, 0);
    private static final Duration WAIT = Duration.ofSeconds(10);

    /** The loop's rebalance listener, as the consumer was given it (to call it as a lost session would). */
    private volatile ConsumerRebalanceListener rebalanceListener;
    private final MockConsumer<byte[], byte[]> consumer = new MockConsumer<>("earliest") {
        @Override
        public synchronized void subscribe(Collection<String> topics, ConsumerRebalanceListener listener) {
            rebalanceListener = listener;
            super.subscribe(topics, listener);
        }
    };
    /** The consumer's assignment at each commit: the partitions whose offsets the commit could still claim. */
    private final List<Set<TopicPartition>> assignmentAtCommit = new CopyOnWriteArrayList<>();
    /** Commits still to fail with a time-out, then with an abortable error, before commits succeed again. */
    private final AtomicInteger commitTimeouts = new AtomicInteger();
    private final AtomicInteger abortableCommitFailures = new AtomicInteger();
    private final AtomicInteger aborts = new AtomicInteger();
    private final MockProducer<byte[], byte[]> producer =
            new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer()) {
                @Override
                public void commitTransaction() {
                    if (commitTimeouts.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                        throw new org.apache.kafka.common.errors.TimeoutException("the coordinator did not answer");
                    }
                    if (abortableCommitFailures.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                        throw new KafkaException("the group moved on: stale generation");
                    }
                    assignmentAtCommit.add(Set.copyOf(consumer.assignment()));
                    super.commitTransaction();
                }

                @Override
                public void abortTransaction() {
                    aborts.incrementAndGet();
                    super.abortTransaction();
                }
            };
    private final HandDrivenPipeline pipeline = new HandDrivenPipeline(3);
    private WorkerLoop loop;
    private CompletableFuture<Void> running;

    @AfterEach
    void stopLoop() throws Exception {
        if (loop != null) {
            loop.stop();
            pipeline.completeAll();
            running.handle((v, e) -> null).get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    @Test
    void outcomesArePublishedInConsumptionOrderEvenWhenALaterRecordFinishesFirst() {
        start(Duration.ofSeconds(5));
        deliver(P0, 0, 1);
        await(() -> pipeline.submitted(1));

        pipeline.complete(1);
        pause(Duration.ofMillis(200));
        assertEquals(List.of(), producer.history(), "offset 1 must wait for offset 0");

        pipeline.complete(0);
        await(() -> producer.history().size() == 2);
        assertEquals(List.of("result-0", "result-1"), values(producer.history()));
        assertEquals(Map.of(P0, new OffsetAndMetadata(2)), lastCommittedOffsets());
        assertTrue(producer.transactionCommitted());
    }

    @Test
    void aFullPipelinePausesFetchingAndTheBacklogFollowsInOrder() {
        start(Duration.ofSeconds(5));
        deliver(P0, 0, 1, 2, 3, 4);
        await(() -> pipeline.submitted(2));
        await(() -> consumer.paused().contains(P0));

        for (int offset = 0; offset < 5; offset++) {
            int next = offset;
            await(() -> pipeline.submitted(next));
            pipeline.complete(offset);
        }
        await(() -> producer.history().size() == 5);
        assertEquals(List.of("result-0", "result-1", "result-2", "result-3", "result-4"), values(producer.history()));
        await(() -> consumer.paused().isEmpty());
    }

    @Test
    void aRevocationPublishesTheRecordsInFlightBeforeThePartitionMoves() {
        start(Duration.ofSeconds(5));
        deliver(P0, 0);
        await(() -> pipeline.submitted(0));

        consumer.schedulePollTask(() -> consumer.rebalance(List.of()));
        CompletableFuture.runAsync(() -> {
            pause(Duration.ofMillis(300)); // the revocation callback is waiting for the forward by now
            pipeline.complete(0);
        });
        await(() -> producer.history().size() == 1);
        assertEquals(Map.of(P0, new OffsetAndMetadata(1)), lastCommittedOffsets());
        assertEquals(List.of(Set.of(P0)), assignmentAtCommit, "committed inside the revocation, while still owned");
        await(() -> consumer.assignment().isEmpty());
    }

    @Test
    void stopFinishesTheRecordsInFlightCommitsThemAndClosesTheClients() throws Exception {
        start(Duration.ofSeconds(5));
        deliver(P0, 0);
        await(() -> pipeline.submitted(0));

        CompletableFuture<Void> stopped = CompletableFuture.runAsync(loop::stop);
        pause(Duration.ofMillis(200));
        pipeline.complete(0);
        stopped.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        running.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);

        assertEquals(List.of("result-0"), values(producer.history()));
        assertEquals(Map.of(P0, new OffsetAndMetadata(1)), lastCommittedOffsets());
        assertTrue(consumer.closed());
        assertTrue(producer.closed());
    }

    @Test
    void aFencedProducerEndsTheLoopWithoutCommitting() {
        start(Duration.ofSeconds(5));
        deliver(P0, 0);
        await(() -> pipeline.submitted(0));

        producer.fenceProducer();
        pipeline.complete(0);

        Throwable failure = running.handle((v, e) -> e).orTimeout(WAIT.toMillis(), TimeUnit.MILLISECONDS).join();
        assertInstanceOf(CannotCommitException.class, failure.getCause());
        assertEquals(List.of(), producer.history());
        assertTrue(consumer.closed());
        loop = null;
    }

    @Test
    void anAbortedTransactionRewindsAndTheRecordIsPublishedOnceWhenItIsReadAgain() {
        abortableCommitFailures.set(1);
        start(Duration.ofSeconds(5));
        deliver(P0, 0);
        await(() -> pipeline.submitted(0));
        pipeline.complete(0);
        await(() -> aborts.get() == 1);
        assertEquals(List.of(), producer.history(), "the aborted transaction published nothing");

        // the broker hands the record out again only if the loop sought back to its offset
        deliver(P0, 0);
        await(() -> producer.history().size() == 1);
        assertEquals(2, pipeline.submissions(0), "processed again after the rewind");
        assertEquals(List.of("result-0"), values(producer.history()));
        assertEquals(Map.of(P0, new OffsetAndMetadata(1)), lastCommittedOffsets());
    }

    @Test
    void aCommitThatTimesOutIsRepeatedAndCountsOnce() {
        commitTimeouts.set(2);
        start(Duration.ofSeconds(5));
        deliver(P0, 0);
        await(() -> pipeline.submitted(0));
        pipeline.complete(0);

        await(() -> producer.history().size() == 1);
        assertEquals(0, aborts.get(), "a timed-out commit may only be repeated, never aborted");
        assertEquals(Map.of(P0, new OffsetAndMetadata(1)), lastCommittedOffsets());
    }

    @Test
    void commitsThatKeepTimingOutEndTheLoopWithoutPublishing() {
        commitTimeouts.set(Integer.MAX_VALUE);
        start(Duration.ofSeconds(5));
        deliver(P0, 0);
        await(() -> pipeline.submitted(0));
        pipeline.complete(0);

        Throwable failure = running.handle((v, e) -> e).orTimeout(WAIT.toMillis(), TimeUnit.MILLISECONDS).join();
        assertInstanceOf(CannotCommitException.class, failure.getCause());
        assertTrue(failure.getCause().getMessage().contains("timed out"), failure.getCause().getMessage());
        assertEquals(List.of(), producer.history());
        assertEquals(0, aborts.get());
        assertTrue(consumer.closed());
        loop = null;
    }

    @Test
    void aLostPartitionsRecordsAreDroppedNotPublished() {
        start(Duration.ofSeconds(5));
        deliver(P0, 0);
        await(() -> pipeline.submitted(0));

        // the group gave the partition away while this worker was cut off (its session expired): the consumer
        // reports it lost on the polling thread, and another worker answers its records
        AtomicInteger lostCalls = new AtomicInteger();
        consumer.schedulePollTask(() -> {
            rebalanceListener.onPartitionsLost(List.of(P0));
            lostCalls.incrementAndGet();
        });
        await(() -> lostCalls.get() == 1);
        pipeline.complete(0);
        pause(Duration.ofMillis(300));
        assertEquals(List.of(), producer.history(), "an outcome of a lost partition is never published");
        assertTrue(!producer.transactionCommitted() && assignmentAtCommit.isEmpty(), "nothing was committed");
    }

    private void start(Duration drainTimeout) {
        consumer.schedulePollTask(() -> {
            consumer.rebalance(List.of(P0));
            consumer.updateBeginningOffsets(Map.of(P0, 0L));
        });
        loop = new WorkerLoop(consumer, producer, pipeline, TOPIC, drainTimeout, new WorkerMetrics(TOPIC),
                new WorkerHealth());
        running = CompletableFuture.runAsync(loop);
    }

    private void deliver(TopicPartition tp, int... offsets) {
        consumer.schedulePollTask(() -> {
            for (int offset : offsets) {
                consumer.addRecord(new ConsumerRecord<>(tp.topic(), tp.partition(), offset, null,
                        ("request-" + offset).getBytes(StandardCharsets.UTF_8)));
            }
        });
    }

    private Map<TopicPartition, OffsetAndMetadata> lastCommittedOffsets() {
        List<Map<String, Map<TopicPartition, OffsetAndMetadata>>> history = producer.consumerGroupOffsetsHistory();
        return history.get(history.size() - 1).values().iterator().next();
    }

    private static List<String> values(List<ProducerRecord<byte[], byte[]>> records) {
        return records.stream().map(r -> new String(r.value(), StandardCharsets.UTF_8)).toList();
    }

    private static void await(BooleanSupplier condition) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met within " + WAIT);
            }
            pause(Duration.ofMillis(10));
        }
    }

    private static void pause(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A pipeline whose records finish when the test says so, by offset. */
    private static final class HandDrivenPipeline implements RecordPipeline {
        private final int capacity;
        private final Map<Long, CompletableFuture<Outcome>> byOffset = new ConcurrentHashMap<>();
        private final Map<Long, ConsumerRecord<byte[], byte[]>> records = new ConcurrentHashMap<>();

        HandDrivenPipeline(int capacity) {
            this.capacity = capacity;
        }

        private final Map<Long, Integer> submissions = new ConcurrentHashMap<>();

        @Override
        public CompletableFuture<Outcome> submit(ConsumerRecord<byte[], byte[]> record) {
            records.put(record.offset(), record);
            submissions.merge(record.offset(), 1, Integer::sum);
            return byOffset.computeIfAbsent(record.offset(), o -> new CompletableFuture<>());
        }

        int submissions(long offset) {
            return submissions.getOrDefault(offset, 0);
        }

        boolean submitted(long offset) {
            return records.containsKey(offset);
        }

        void complete(long offset) {
            byOffset.computeIfAbsent(offset, o -> new CompletableFuture<>()).complete(new Outcome("results", null,
                    null, ("result-" + offset).getBytes(StandardCharsets.UTF_8), new RecordHeaders(),
                    new Verdict.Answered(Status.OK, null, null)));
        }

        void completeAll() {
            records.keySet().forEach(this::complete);
        }

        @Override
        public int capacity() {
            return capacity;
        }

        @Override
        public void close() {}
    }
}
