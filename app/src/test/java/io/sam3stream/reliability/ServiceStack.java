package io.sam3stream.reliability;

import io.sam3stream.kafka.KafkaTestStack;
import io.sam3stream.kafka.RunningWorker;
import java.time.Duration;
import java.util.Map;

/**
 * One deployment of the service on the shared test broker and registry, with its own topics: a worker with the
 * tiny engine and the HTTP facade, both in this JVM.
 */
final class ServiceStack implements AutoCloseable {

    private final RunningWorker worker;
    private final InProcessFacade facade;

    private ServiceStack(RunningWorker worker, InProcessFacade facade) {
        this.worker = worker;
        this.facade = facade;
    }

    /**
     * Starts a worker, then a facade, and returns once the facade is healthy.
     *
     * @param deployment prefix of the topic and group names
     * @param knobs      settings on top of the test stack's (limits, API keys, ...)
     */
    static ServiceStack start(String deployment, Map<String, String> knobs) throws Exception {
        Map<String, String> env = KafkaTestStack.workerEnvironment(deployment);
        env.putAll(knobs);
        RunningWorker worker = RunningWorker.start(env);
        try {
            InProcessFacade facade = InProcessFacade.start(env);
            try {
                facade.awaitHealthy(Duration.ofSeconds(60));
            } catch (AssertionError | InterruptedException e) {
                facade.close();
                throw e;
            }
            return new ServiceStack(worker, facade);
        } catch (Exception | AssertionError e) {
            worker.close();
            throw e;
        }
    }

    RunningWorker worker() {
        return worker;
    }

    InProcessFacade facade() {
        return facade;
    }

    @Override
    public void close() {
        facade.close();
        worker.close();
    }
}
