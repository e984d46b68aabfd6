package io.sam3stream.kafka;

import io.sam3stream.avro.WorkerState;
import io.sam3stream.avro.WorkerStatus;
import io.sam3stream.device.EncoderTrace;
import io.sam3stream.engine.EngineInfo;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.Serializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes this worker's {@link WorkerStatus} to the compacted workers topic, keyed by worker id: at once on every
 * change of state and every heartbeat interval in between, so that a reader can tell a live worker from a dead one
 * by the age of its latest status. Uses its own non-transactional producer: a heartbeat must get out while a
 * transaction is open, and must never be rolled back with one.
 */
public final class StatusHeartbeats implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(StatusHeartbeats.class);

    /** Time between heartbeats: a reader notices a dead worker within a few of them. */
    public static final Duration INTERVAL = Duration.ofSeconds(3);

    /** Runtime entry with the precision the engine computes in and why ({@code /info} shows it per worker). */
    public static final String PRECISION = "precision";

    /** How long the last status may take to reach the brokers when the worker stops. */
    private static final Duration FINAL_SEND_TIMEOUT = Duration.ofSeconds(10);

    private final Producer<byte[], byte[]> producer;
    private final Serializer<WorkerStatus> serializer;
    private final WorkerConfig config;
    private final ScheduledExecutorService timer;
    private WorkerState state = WorkerState.STARTING;
    private EngineInfo engine;
    private Supplier<Optional<EncoderTrace>> encoderTrace = Optional::empty;
    private Double lastForwardMs;

    /**
     * @param producer   a plain producer, owned (and closed) by this publisher
     * @param serializer writes {@code WorkerStatus} in the Confluent wire format
     * @param config     the worker's id, topic, limits and runtime switches
     * @param expected   the backend and model as configured, reported until the engine is loaded
     */
    public StatusHeartbeats(Producer<byte[], byte[]> producer, Serializer<WorkerStatus> serializer,
            WorkerConfig config, EngineInfo expected) {
        this.producer = producer;
        this.serializer = serializer;
        this.config = config;
        this.engine = expected;
        this.timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread t = new Thread(runnable, "sam3-heartbeats");
            t.setDaemon(true);
            return t;
        });
    }

    /** Publishes the current status now and every interval from now on. */
    public void start() {
        timer.scheduleAtFixedRate(this::beat, 0, INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The engine is loaded: statuses from now on carry its backend, device and model identity. */
    public synchronized void engineLoaded(EngineInfo info) {
        this.engine = info;
    }

    /** Statuses from now on report the encoder's trace counters ({@code encoder_trace_captured}, ...) as of then. */
    public synchronized void reportEncoderTrace(Supplier<Optional<EncoderTrace>> source) {
        this.encoderTrace = source;
    }

    /** A forward finished in {@code millis}; the next status reports it. */
    public synchronized void forwardFinished(double millis) {
        this.lastForwardMs = millis;
    }

    /** Moves to {@code next} and publishes it at once (nothing once closed: STOPPED was the last word). */
    public void announce(WorkerState next) {
        WorkerStatus status;
        synchronized (this) {
            if (timer.isShutdown()) {
                return;
            }
            state = next;
            status = status();
            timer.execute(() -> publish(status));
        }
    }

    /**
     * Publishes STOPPED and waits until the brokers have it, so that the last word of a worker that stops cleanly
     * is never lost; then stops publishing and closes the producer.
     */
    @Override
    public void close() {
        synchronized (this) {
            timer.shutdown(); // announcements already queued still go out; the periodic beat stops
        }
        try {
            timer.awaitTermination(FINAL_SEND_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            synchronized (this) {
                state = WorkerState.STOPPED;
            }
            send(status()).get(FINAL_SEND_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            LOG.warn("the STOPPED status did not reach the brokers: {}", e.toString());
        } finally {
            producer.close(FINAL_SEND_TIMEOUT);
        }
    }

    private void beat() {
        publish(status());
    }

    private void publish(WorkerStatus status) {
        try {
            send(status);
        } catch (RuntimeException e) {
            // the registry or the brokers are away; the next beat tries again
            LOG.warn("heartbeat not sent: {}", e.toString());
        }
    }

    private Future<RecordMetadata> send(WorkerStatus status) {
        byte[] key = config.workerId().getBytes(StandardCharsets.UTF_8);
        return producer.send(new ProducerRecord<>(config.workersTopic(), key,
                serializer.serialize(config.workersTopic(), status)));
    }

    /**
     * The configured switches, what the engine resolved them to once it is loaded ({@code precision}), and where
     * the encoder runs on a device, its trace counters.
     */
    private Map<String, String> runtime() {
        Map<String, String> runtime = new LinkedHashMap<>(config.runtime());
        runtime.put(PRECISION, engine.precision());
        runtime.putAll(EncoderTraceGate.runtimeEntries(encoderTrace.get()));
        return runtime;
    }

    private synchronized WorkerStatus status() {
        return WorkerStatus.newBuilder()
                .setWorkerId(config.workerId())
                .setState(state)
                .setBackend(engine.backend())
                .setDevice(engine.device())
                .setModelRepo(engine.modelRepo())
                .setModelRevision(engine.modelRevision())
                .setCheckpointPath(engine.checkpoint())
                .setLimits(config.limits())
                .setRuntime(runtime())
                .setSourceCommit(StatusHeartbeats.class.getPackage().getImplementationVersion())
                .setLastForwardMs(lastForwardMs)
                .setHeartbeatIntervalMs((int) INTERVAL.toMillis())
                .setTimestamp(Instant.now())
                .build();
    }
}
