package io.sam3stream.kafka;

import io.sam3stream.config.Settings;
import io.sam3stream.telemetry.Tracing;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** A {@link WorkerService} with the tiny engine, started in this JVM and waited for until READY. */
public final class RunningWorker implements AutoCloseable {

    /** Engine load and warm-up of the tiny model, with room for a busy host. */
    public static final Duration READY_TIMEOUT = Duration.ofSeconds(120);

    private final WorkerService service;

    private RunningWorker(WorkerService service) {
        this.service = service;
    }

    /** Starts a worker with {@code env} and returns once it is READY. */
    public static RunningWorker start(Map<String, String> env) throws Exception {
        Settings settings = Settings.from(env);
        return start(new WorkerService(settings, () -> TinyEngine.load(settings)));
    }

    /** Starts a worker with {@code env} whose spans go to {@code tracing}, and returns once it is READY. */
    public static RunningWorker start(Map<String, String> env, Tracing tracing) throws Exception {
        Settings settings = Settings.from(env);
        return start(new WorkerService(settings, () -> TinyEngine.load(settings), step -> {}, tracing));
    }

    private static RunningWorker start(WorkerService service) throws Exception {
        service.start();
        try {
            service.ready().get(READY_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            service.stop();
            throw e;
        }
        return new RunningWorker(service);
    }

    public WorkerConfig config() {
        return service.config();
    }

    /** Stops the worker (drains, publishes STOPPED) and waits until it has. */
    public void stop() {
        service.stop();
    }

    @Override
    public void close() {
        stop();
    }
}
