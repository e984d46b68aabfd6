package io.sam3stream.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sam3stream.avro.ErrorCode;
import io.sam3stream.avro.SegmentationResult;
import io.sam3stream.avro.Status;
import io.sam3stream.config.Settings;
import io.sam3stream.engine.EngineInfo;
import io.sam3stream.engine.Inference;
import io.sam3stream.engine.PreparedRequest;
import io.sam3stream.engine.SegmentRequest;
import io.sam3stream.engine.SegmentResponse;
import io.sam3stream.engine.Segmenter;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A failure the engine did not foresee becomes an INTERNAL_ERROR result whose message is an error id, never the
 * exception's text (which may name files, hosts or internals); the worker keeps serving.
 */
@ExtendWith(KafkaTestStack.class)
class InternalErrorTest {

    private static final Duration RESULTS_TIMEOUT = Duration.ofSeconds(90);
    private static final String SECRET = "cannot map /srv/weights/sam3.pt on node-7.internal";

    /** The tiny engine, failing unexpectedly on the prompt "explode". */
    private record Exploding(Segmenter engine) implements Segmenter {
        @Override
        public PreparedRequest prepare(SegmentRequest request) {
            return engine.prepare(request);
        }

        @Override
        public Inference infer(PreparedRequest prepared) {
            if (prepared.request().prompts().get(0).text().equals("explode")) {
                throw new IllegalStateException(SECRET);
            }
            return engine.infer(prepared);
        }

        @Override
        public SegmentResponse finish(Inference inference) {
            return engine.finish(inference);
        }

        @Override
        public EngineInfo info() {
            return engine.info();
        }

        @Override
        public void close() {
            engine.close();
        }
    }

    @Test
    void theResultCarriesAnErrorIdAndTheWorkerKeepsServing() throws Exception {
        Map<String, String> env = KafkaTestStack.workerEnvironment("internal");
        Settings settings = Settings.from(env);
        WorkerService service = new WorkerService(settings, () -> new Exploding(TinyEngine.load(settings)));
        service.start();
        try {
            service.ready().get(RunningWorker.READY_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            try (TestClients.Requests producer = new TestClients.Requests(service.config().requestsTopic())) {
                producer.send(TestRequests.request("boom", TestRequests.goldenImage(), "explode").build());
                producer.send(TestRequests.request("after", TestRequests.goldenImage(), "cat").build());
            }
            List<ConsumerRecord<byte[], byte[]>> found = TestClients.readCommittedKeys(
                    service.config().resultsTopic(), List.of("boom", "after"), RESULTS_TIMEOUT);
            List<SegmentationResult> results = TestRequests.results(found);
            SegmentationResult boom = results.stream().filter(r -> r.getRequestId().equals("boom")).findFirst()
                    .orElseThrow();
            SegmentationResult after = results.stream().filter(r -> r.getRequestId().equals("after")).findFirst()
                    .orElseThrow();
            assertEquals(Status.ERROR, boom.getStatus());
            assertEquals(ErrorCode.INTERNAL_ERROR, boom.getError().getCode());
            String message = boom.getError().getMessage();
            assertFalse(message.contains("srv") || message.contains("IllegalStateException"), message);
            assertTrue(message.matches("internal error [0-9a-f-]{36} \\(the worker's log has the details\\)"),
                    message);
            assertEquals(Status.OK, after.getStatus(), "the worker keeps serving");
        } finally {
            service.stop();
        }
    }
}
