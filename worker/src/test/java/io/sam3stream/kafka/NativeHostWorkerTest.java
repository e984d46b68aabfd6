package io.sam3stream.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sam3stream.avro.WorkerState;
import io.sam3stream.avro.WorkerStatus;
import io.sam3stream.schemas.serde.SpecificAvroDeserializer;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A worker whose islands run through the JNI bridge (the host implementation): it passes the encoder-trace gate,
 * which only waits for a trace where the device expects one, and its heartbeat carries the trace fields that
 * {@code /info} reports, as a p150a worker's does.
 */
@ExtendWith(KafkaTestStack.class)
class NativeHostWorkerTest {

    @Test
    void becomesReadyAndReportsItsEncoderTraceCounters() throws Exception {
        Map<String, String> env = KafkaTestStack.workerEnvironment("native-host");
        env.put("SAM3_BACKEND", "native-host");
        env.put("SAM3_WARMUP_RUNS", "2");
        try (RunningWorker worker = RunningWorker.start(env)) {
            SpecificAvroDeserializer<WorkerStatus> statuses =
                    new SpecificAvroDeserializer<>(KafkaTestStack.registryClient(), WorkerStatus.class);
            WorkerStatus ready = TestClients.readCommitted(worker.config().workersTopic(), Duration.ofSeconds(60),
                    read -> read.stream().anyMatch(r -> statuses.deserialize(r.topic(), r.value()).getState()
                            == WorkerState.READY)).stream().map(r -> statuses.deserialize(r.topic(), r.value()))
                    .filter(s -> s.getState() == WorkerState.READY).findFirst().orElseThrow();
            assertEquals("native-host", ready.getBackend());
            assertEquals("false", ready.getRuntime().get("encoder_trace_captured"), ready.getRuntime().toString());
            assertEquals("0", ready.getRuntime().get("encoder_fallbacks"), ready.getRuntime().toString());
        }
    }
}
