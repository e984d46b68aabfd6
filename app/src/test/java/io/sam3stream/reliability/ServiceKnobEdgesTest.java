package io.sam3stream.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sam3stream.avro.SegmentationResult;
import io.sam3stream.avro.Status;
import io.sam3stream.config.Knob;
import io.sam3stream.kafka.KafkaTestStack;
import io.sam3stream.kafka.RunningWorker;
import io.sam3stream.kafka.TestClients;
import io.sam3stream.kafka.TestRequests;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The worker and the facade started with every one of their numeric knobs at its lowest and at its highest allowed
 * value (the bounds of {@link Knob}), each serving requests straight from Kafka and through {@code POST /predict}.
 * An allowed value must be safe: it may make requests fail cleanly (a 1 ms reply deadline answers 504), never make
 * a service fail or stop serving.
 */
@ExtendWith(KafkaTestStack.class)
class ServiceKnobEdgesTest {

    private static final Duration RESULTS_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration START_TIMEOUT = Duration.ofSeconds(120);
    /** The worker's and the facade's numeric knobs (the engine's have {@code EngineKnobEdgesTest}). */
    private static final List<Knob> SERVICE_KNOBS = List.of(Knob.SAM3_TOPIC_PARTITIONS, Knob.SAM3_MAX_MESSAGE_BYTES,
            Knob.SAM3_MAX_IN_FLIGHT, Knob.SAM3_REPLY_TIMEOUT_MS, Knob.SAM3_WARMUP_RUNS);

    @Test
    void everyKnobAtItsLowestServesOrRefusesCleanlyAndKeepsServing() throws Exception {
        Map<String, String> env = environment("edges-low", Knob::min);
        try (RunningWorker worker = RunningWorker.start(env);
                InProcessFacade facade = InProcessFacade.start(env).awaitHealthy(START_TIMEOUT)) {
            assertServedStraightFromKafka(env, "low-1");
            // a 1 ms deadline: the call cannot be answered in time, and says so
            HttpCalls.Answer late = facade.http().predict(PredictBodies.of(small(), "cat").toString());
            assertEquals(504, late.status(), late.toString());
            assertServedStraightFromKafka(env, "low-2");
        }
    }

    /**
     * 1,024 partitions for every topic, and so 1,024 job-store tasks in the facade: about a minute on two cores, so
     * it runs with the reliability group.
     */
    @Test
    @Tag("reliability")
    void everyKnobAtItsHighestServes() throws Exception {
        Map<String, String> env = environment("edges-high", Knob::max);
        try (RunningWorker worker = RunningWorker.start(env);
                InProcessFacade facade = InProcessFacade.start(env).awaitHealthy(START_TIMEOUT)) {
            assertServedStraightFromKafka(env, "high-1");
            HttpCalls.Answer answer = facade.http().predict(PredictBodies.of(small(), "cat").toString());
            assertEquals(200, answer.status(), answer.toString());
        }
    }

    private static Map<String, String> environment(String deployment, ToLongFunction<Knob> edge) {
        Map<String, String> env = KafkaTestStack.workerEnvironment(deployment);
        for (Knob knob : SERVICE_KNOBS) {
            env.put(knob.name(), Long.toString(edge.applyAsLong(knob)));
        }
        return env;
    }

    private static void assertServedStraightFromKafka(Map<String, String> env, String id) {
        try (TestClients.Requests producer = new TestClients.Requests(env.get("SAM3_REQUESTS_TOPIC"))) {
            producer.send(TestRequests.request(id, small(), "cat").build());
        }
        List<SegmentationResult> results = TestRequests.results(TestClients.readCommittedKeys(
                env.get("SAM3_RESULTS_TOPIC"), List.of(id), RESULTS_TIMEOUT));
        assertEquals(1, results.size());
        assertEquals(Status.OK, results.get(0).getStatus(), results.get(0).toString());
    }

    /** A picture whose request and result fit the smallest allowed message (64 KiB). */
    private static byte[] small() {
        return TestRequests.goldenImage(96, 64);
    }
}
