package io.sam3stream.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sam3stream.avro.SegmentationResult;
import io.sam3stream.avro.Status;
import io.sam3stream.avro.WorkerState;
import io.sam3stream.avro.WorkerStatus;
import io.sam3stream.schemas.serde.SpecificAvroDeserializer;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Two workers share a four-partition request topic; one stops while requests flow. */
@ExtendWith(KafkaTestStack.class)
class GroupHandoverTest {

    /** Requests sent after the stop returned: the ones that must all go to the remaining worker. */
    private static final int AFTER_STOP = 12;
    private static final int MAX_REQUESTS = 1000;
    private static final Duration SPACING = Duration.ofMillis(50);
    private static final Duration TIMEOUT = Duration.ofSeconds(120);

    @Test
    void stoppingOneWorkerMovesItsPartitionsWithoutLosingOrRepeatingAResult() throws Exception {
        Map<String, String> env = KafkaTestStack.workerEnvironment("handover");
        env.put("SAM3_TOPIC_PARTITIONS", "4");
        String deployment = env.get("SAM3_WORKER_ID");
        Map<String, String> envA = new HashMap<>(env);
        envA.put("SAM3_WORKER_ID", deployment + "-a");
        Map<String, String> envB = new HashMap<>(env);
        envB.put("SAM3_WORKER_ID", deployment + "-b");

        try (RunningWorker a = RunningWorker.start(envA); RunningWorker b = RunningWorker.start(envB)) {
            String idA = a.config().workerId();
            String idB = b.config().workerId();
            Map<String, Integer> partitionOf = new ConcurrentHashMap<>();
            AtomicInteger sent = new AtomicInteger();
            AtomicInteger stoppedAt = new AtomicInteger(MAX_REQUESTS);
            CompletableFuture<Integer> producing = CompletableFuture.supplyAsync(() -> {
                try (TestClients.Requests requests = new TestClients.Requests(a.config().requestsTopic())) {
                    while (sent.get() < Math.min(MAX_REQUESTS, stoppedAt.get() + AFTER_STOP)) {
                        String id = "r-" + sent.get();
                        partitionOf.put(id, requests.send(TestRequests.request(id, TestRequests.goldenImage(), "cat")
                                .build()).partition());
                        sent.incrementAndGet();
                        pause(SPACING);
                    }
                    return sent.get();
                }
            });
            // stop a once both have answered something, while requests keep arriving
            TestClients.readCommitted(a.config().resultsTopic(), TIMEOUT,
                    read -> answeredBy(read).keySet().containsAll(Set.of(idA, idB)));
            a.stop();
            int sentBeforeStopped = sent.get();
            stoppedAt.set(sentBeforeStopped);
            int total = producing.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);

            List<SegmentationResult> results = TestRequests.results(TestClients.readAllOnceComplete(
                    a.config().resultsTopic(), IntStream.range(0, total).mapToObj(i -> "r-" + i).toList(), TIMEOUT,
                    Duration.ofSeconds(1)));
            assertEquals(IntStream.range(0, total).mapToObj(i -> "r-" + i).sorted().toList(),
                    results.stream().map(SegmentationResult::getRequestId).sorted().toList(),
                    "every request answered exactly once");
            results.forEach(r -> assertEquals(Status.OK, r.getStatus(), r.toString()));

            Set<Integer> partitionsOfA = results.stream().filter(r -> r.getWorkerId().equals(idA))
                    .map(r -> partitionOf.get(r.getRequestId())).collect(Collectors.toSet());
            List<SegmentationResult> afterStop = results.stream()
                    .filter(r -> Integer.parseInt(r.getRequestId().substring(2)) >= sentBeforeStopped).toList();
            assertTrue(afterStop.size() >= AFTER_STOP);
            afterStop.forEach(r -> assertEquals(idB, r.getWorkerId(), r.getRequestId() + " after a stopped"));
            assertTrue(afterStop.stream().anyMatch(r -> partitionsOfA.contains(partitionOf.get(r.getRequestId()))),
                    "b answers in a partition that a owned");

            List<WorkerState> statesOfA = statesOf(a.config().workersTopic(), idA);
            assertEquals(List.of(WorkerState.DRAINING, WorkerState.STOPPED),
                    statesOfA.subList(statesOfA.size() - 2, statesOfA.size()), statesOfA.toString());
        }
    }

    private static Map<String, Long> answeredBy(List<ConsumerRecord<byte[], byte[]>> read) {
        return TestRequests.results(read).stream()
                .collect(Collectors.groupingBy(SegmentationResult::getWorkerId, Collectors.counting()));
    }

    private static List<WorkerState> statesOf(String topic, String workerId) {
        SpecificAvroDeserializer<WorkerStatus> statuses =
                new SpecificAvroDeserializer<>(KafkaTestStack.registryClient(), WorkerStatus.class);
        Function<ConsumerRecord<byte[], byte[]>, WorkerStatus> decode = r -> statuses.deserialize(topic, r.value());
        return TestClients.readCommitted(topic, TIMEOUT, read -> read.stream().map(decode)
                        .anyMatch(s -> s.getWorkerId().equals(workerId) && s.getState() == WorkerState.STOPPED))
                .stream().map(decode).filter(s -> s.getWorkerId().equals(workerId)).map(WorkerStatus::getState)
                .toList();
    }

    private static void pause(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
