package io.sam3stream.kafka;

import io.sam3stream.avro.WorkerState;
import io.sam3stream.config.Knob;
import io.sam3stream.config.Settings;
import io.sam3stream.engine.EngineInfo;
import io.sam3stream.engine.Segmenter;
import io.sam3stream.operations.OperationsServer;
import io.sam3stream.operations.WorkerHealth;
import io.sam3stream.operations.WorkerMetrics;
import io.sam3stream.schemas.registry.SchemaRegistryClient;
import io.sam3stream.schemas.serde.AvroSerializer;
import io.sam3stream.telemetry.Tracing;
import java.net.URI;
import java.time.Duration;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Kafka worker: creates the topics it needs, loads the engine, warms it up, then consumes requests and
 * publishes results until stopped, reporting its state on the workers topic throughout (STARTING, READY, DRAINING,
 * STOPPED). {@code sam3 worker} runs one per process; the dev stack runs one in-process beside the broker.
 *
 * <p>The Kafka timeouts are set only once the warm-up has measured the forward time, which is why the consumer and
 * the transactional producer are created after it ({@link ProcessingTimeouts}).
 *
 * <p>With {@code SAM3_WORKER_HTTP_PORT} set, an {@link OperationsServer} serves the worker's metrics and probes
 * from {@link #start} until {@link #stop} returns, through warm-up and drain, so a probe sees every phase.
 */
public final class WorkerService implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(WorkerService.class);

    /** The {@code service.name} of the worker's spans. */
    public static final String SERVICE_NAME = "sam3-worker";

    private final WorkerConfig config;
    private final EngineInfo expected;
    private final Supplier<? extends Segmenter> engineLoader;
    private final Consumer<String> progress;
    private final CompletableFuture<Void> ready = new CompletableFuture<>();
    private final CompletableFuture<Void> terminated = new CompletableFuture<>();
    private final WorkerMetrics metrics;
    private final WorkerHealth health = new WorkerHealth();
    private final Tracing tracing;
    private OperationsServer operations;
    private Thread thread;
    private boolean stopping;
    private WorkerLoop loop;
    private StatusHeartbeats heartbeats;

    /**
     * @param settings     the configuration (topics, limits, worker id, Kafka and registry addresses)
     * @param engineLoader loads the engine; called once, on the worker's thread
     */
    public WorkerService(Settings settings, Supplier<? extends Segmenter> engineLoader) {
        this(settings, engineLoader, LOG::info);
    }

    /**
     * @param settings     the configuration (topics, limits, worker id, Kafka and registry addresses)
     * @param engineLoader loads the engine; called once, on the worker's thread
     * @param progress     told the warm-up steps as they begin ("Warming up (1/2) ...", "Warmup complete")
     */
    public WorkerService(Settings settings, Supplier<? extends Segmenter> engineLoader, Consumer<String> progress) {
        this(settings, engineLoader, progress,
                tracingOf(WorkerConfig.from(settings)));
    }

    /**
     * @param settings     the configuration (topics, limits, worker id, Kafka and registry addresses)
     * @param engineLoader loads the engine; called once, on the worker's thread
     * @param progress     told the warm-up steps as they begin ("Warming up (1/2) ...", "Warmup complete")
     * @param tracing      where the records' spans go; closed when the worker stops
     */
    public WorkerService(Settings settings, Supplier<? extends Segmenter> engineLoader, Consumer<String> progress,
            Tracing tracing) {
        this.tracing = tracing;
        this.progress = step -> {
            health.starting(step);
            progress.accept(step);
        };
        this.config = WorkerConfig.from(settings);
        this.expected = new EngineInfo(settings.get(Knob.SAM3_BACKEND), settings.get(Knob.SAM3_BACKEND),
                settings.get(Knob.HF_MODEL), "", null, 0, "SAM3_PRECISION=" + settings.get(Knob.SAM3_PRECISION));
        this.engineLoader = engineLoader;
        this.metrics = new WorkerMetrics(config.requestsTopic());
        metrics.readiness(health);
    }

    private static Tracing tracingOf(WorkerConfig config) {
        return Tracing.create(config.otlpEndpoint(), SERVICE_NAME, config.workerId());
    }

    /** The configuration this worker runs with. */
    public WorkerConfig config() {
        return config;
    }

    /**
     * Starts the worker on its own thread and returns at once; see {@link #ready()} and {@link #terminated()}. The
     * operations endpoint, when configured, listens before this returns.
     *
     * @throws java.io.UncheckedIOException when the operations port cannot be bound
     */
    public synchronized void start() {
        if (thread != null) {
            throw new IllegalStateException("already started");
        }
        if (config.httpPort() >= 0) {
            operations = OperationsServer.start(config.httpPort(), health, metrics::scrape);
            LOG.info("worker {} serves {} and {}, {} on port {}", config.workerId(), OperationsServer.METRICS,
                    OperationsServer.LIVE, OperationsServer.READY, operations.port());
        }
        thread = new Thread(this::run, "sam3-worker");
        thread.start();
    }

    /** Completes when the worker is READY; exceptionally when it fails or stops before. */
    public CompletableFuture<Void> ready() {
        return ready;
    }

    /** The port of the worker's {@code /metrics} and health probes once started; empty when it has none. */
    public synchronized OptionalInt httpPort() {
        return operations == null ? OptionalInt.empty() : OptionalInt.of(operations.port());
    }

    /** Completes when the worker has stopped; exceptionally when it failed. */
    public CompletableFuture<Void> terminated() {
        return terminated;
    }

    /**
     * Stops taking requests, finishes and commits the ones in flight, publishes STOPPED, closes the engine and the
     * operations endpoint; returns when all that is done (at once when never started).
     */
    public void stop() {
        synchronized (this) {
            if (!stopping) {
                stopping = true;
                health.draining();
                if (heartbeats != null) {
                    heartbeats.announce(WorkerState.DRAINING);
                }
                if (loop != null) {
                    loop.stop();
                }
            }
            if (thread == null) {
                terminated.complete(null);
                closeQuietly(tracing);
                return;
            }
        }
        try {
            terminated.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            // logged by the worker's thread, and reported through terminated()
        }
        synchronized (this) {
            if (operations != null) {
                operations.close();
            }
        }
    }

    /** {@link #stop()}. */
    @Override
    public void close() {
        stop();
    }

    private void run() {
        long startNanos = System.nanoTime();
        SchemaRegistryClient registry = SchemaRegistryClient.builder(URI.create(config.schemaRegistryUrl())).build();
        ClientProperties clients = config.clientProperties();
        Segmenter engine = null;
        SegmentationPipeline pipeline = null;
        Throwable failure = null;
        AutoCloseable consumerMetrics = null;
        try (Admin admin = Admin.create(clients.admin())) {
            health.starting("creating topics");
            TopicSetup.ensure(admin, config.topics(), config.maxMessageBytes());
            startHeartbeats(registry, clients);
            health.starting("loading the engine");
            engine = engineLoader.get();
            heartbeats.engineLoaded(engine.info());
            metrics.engineLoaded(config.workerId(), engine.info());
            LOG.info("engine loaded: {}", engine.info());
            heartbeats.reportEncoderTrace(engine::encoderTrace);
            Duration forward = WarmUp.run(engine, config.warmupRuns(), heartbeats::forwardFinished, progress)
                    .orElse(ProcessingTimeouts.UNMEASURED_FORWARD);
            EncoderTraceGate.check(engine.encoderTrace(), config.warmupRuns());
            ProcessingTimeouts timeouts = new ProcessingTimeouts(forward,
                    Duration.ofNanos(System.nanoTime() - startNanos), SegmentationPipeline.CAPACITY);
            pipeline = new SegmentationPipeline(engine, config, registry, admin, heartbeats::forwardFinished,
                    metrics, tracing);
            KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(
                    clients.consumer(config.consumerGroup(), config.workerId(), timeouts),
                    new ByteArrayDeserializer(), new ByteArrayDeserializer());
            consumerMetrics = metrics.bindConsumer(consumer);
            WorkerLoop worker = new WorkerLoop(consumer,
                    new KafkaProducer<>(clients.transactionalProducer("sam3-worker-" + config.workerId(), timeouts),
                            new ByteArraySerializer(), new ByteArraySerializer()),
                    pipeline, config.requestsTopic(), timeouts.drain(), metrics, health);
            synchronized (this) {
                loop = worker;
                if (stopping) {
                    worker.stop(); // asked to stop while starting: run() only closes the clients
                } else {
                    heartbeats.announce(WorkerState.READY);
                    health.consuming(timeouts.maxPollInterval());
                    LOG.info("worker {} READY: forward {} ms, {}", config.workerId(), forward.toMillis(), timeouts);
                    ready.complete(null);
                }
            }
            worker.run();
        } catch (Throwable e) {
            LOG.error("worker {} failed", config.workerId(), e);
            failure = e;
        } finally {
            closeQuietly(consumerMetrics);
            health.stopped(failure);
            if (pipeline != null) {
                pipeline.close();
            }
            if (heartbeats != null) {
                heartbeats.close(); // publishes STOPPED
            }
            if (engine != null && (pipeline == null || pipeline.deviceStopped())) {
                engine.close();
            }
            closeQuietly(tracing); // flushes the spans of the last records
            ready.completeExceptionally(failure != null ? failure
                    : new IllegalStateException("worker " + config.workerId() + " stopped before it was ready"));
            if (failure != null) {
                terminated.completeExceptionally(failure);
            } else {
                terminated.complete(null);
            }
        }
    }

    private static void closeQuietly(AutoCloseable resource) {
        if (resource != null) {
            try {
                resource.close();
            } catch (Exception e) {
                LOG.warn("closing {} failed: {}", resource, e.toString());
            }
        }
    }

    private synchronized void startHeartbeats(SchemaRegistryClient registry, ClientProperties clients) {
        heartbeats = new StatusHeartbeats(
                new KafkaProducer<>(clients.producer(), new ByteArraySerializer(), new ByteArraySerializer()),
                new AvroSerializer<>(registry, true), config, expected);
        heartbeats.start();
    }
}
