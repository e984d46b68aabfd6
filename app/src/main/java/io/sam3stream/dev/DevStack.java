package io.sam3stream.dev;

import io.sam3stream.broker.EmbeddedKafkaBroker;
import io.sam3stream.config.Knob;
import io.sam3stream.config.Settings;
import io.sam3stream.engine.EngineFactory;
import io.sam3stream.engine.ModelSource;
import io.sam3stream.engine.Segmenter;
import io.sam3stream.facade.FacadeConfig;
import io.sam3stream.facade.FacadeServer;
import io.sam3stream.kafka.WorkerService;
import io.sam3stream.schemas.registry.embedded.EmbeddedSchemaRegistry;
import io.sam3stream.telemetry.Tracing;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The whole service in one process: an embedded single-node KRaft broker, the embedded schema registry, one
 * worker and the HTTP facade — or the worker and facade alone against an existing cluster. Started in dependency
 * order, stopped in reverse.
 */
public final class DevStack implements AutoCloseable {

    /**
     * Where the stack runs.
     *
     * @param host           HTTP bind address
     * @param dataDir        the embedded broker's log directory (reused across restarts)
     * @param kafkaPort      the embedded broker's client port (its controller listens on the next port)
     * @param registryPort   the embedded registry's port (0 = any free port)
     * @param kafka          an existing cluster's bootstrap servers, or null to embed a broker
     * @param schemaRegistry an existing registry's URL, or null to embed one
     */
    public record Options(String host, Path dataDir, int kafkaPort, int registryPort, String kafka,
            String schemaRegistry) {}

    private final Deque<AutoCloseable> started = new ArrayDeque<>();
    private Settings settings;
    private WorkerService worker;
    private FacadeServer facade;

    private DevStack() {}

    /**
     * Starts everything and returns once the worker is READY and the facade listens.
     *
     * @param settings the configuration; Kafka and registry addresses are replaced by the embedded ones
     * @param model    the weights the worker loads
     * @param progress told each start-up step as it begins
     */
    public static DevStack start(Settings settings, ModelSource model, Options options, Consumer<String> progress)
            throws IOException, InterruptedException {
        return start(settings, model, options, progress, Optional.empty());
    }

    /**
     * Starts everything as {@link #start(Settings, ModelSource, Options, Consumer)} does, the worker and the facade
     * sending their spans to {@code tracing} instead of the collector the settings name (tests read them there).
     */
    public static DevStack start(Settings settings, ModelSource model, Options options, Consumer<String> progress,
            Optional<Tracing> tracing) throws IOException, InterruptedException {
        DevStack stack = new DevStack();
        try {
            stack.startAll(settings, model, options, progress, tracing);
            return stack;
        } catch (IOException | InterruptedException | RuntimeException e) {
            stack.close();
            throw e;
        }
    }

    private void startAll(Settings base, ModelSource model, Options options, Consumer<String> progress,
            Optional<Tracing> tracing) throws IOException, InterruptedException {
        String bootstrap = options.kafka();
        if (bootstrap == null) {
            progress.accept("Starting Kafka (KRaft) on 127.0.0.1:" + options.kafkaPort() + ", data in "
                    + options.dataDir().toAbsolutePath() + " ...");
            EmbeddedKafkaBroker broker = new EmbeddedKafkaBroker(options.dataDir(), options.kafkaPort(),
                    options.kafkaPort() + 1, base.getLong(Knob.SAM3_MAX_MESSAGE_BYTES));
            broker.start();
            started.push(broker);
            bootstrap = broker.bootstrapServers();
        }
        String registryUrl = options.schemaRegistry();
        if (registryUrl == null) {
            EmbeddedSchemaRegistry registry = EmbeddedSchemaRegistry.start(
                    new InetSocketAddress("127.0.0.1", options.registryPort()), bootstrap);
            started.push(registry);
            registryUrl = registry.url().toString();
            progress.accept("Schema registry at " + registryUrl);
        }
        settings = base.with(Knob.KAFKA_BOOTSTRAP_SERVERS, bootstrap).with(Knob.SCHEMA_REGISTRY_URL, registryUrl);
        Settings configured = settings;
        Supplier<Segmenter> engine = () -> EngineFactory.create(configured, model, progress);
        worker = tracing.isPresent() ? new WorkerService(configured, engine, progress, tracing.get())
                : new WorkerService(configured, engine, progress);
        started.push(worker);
        worker.start();
        worker.ready().join();
        FacadeConfig facadeConfig = FacadeConfig.from(configured, options.host());
        facade = (tracing.isPresent() ? new FacadeServer(facadeConfig, tracing.get()) : new FacadeServer(facadeConfig))
                .start();
        started.push(facade);
        if (!facade.awaitReplyPartitions(Duration.ofSeconds(60))) {
            throw new IllegalStateException("the facade was given no reply partition within 60 s");
        }
    }

    /** The port the facade listens on. */
    public int httpPort() {
        return facade.port();
    }

    /** The port of the worker's {@code /metrics} and health probes; empty when SAM3_WORKER_HTTP_PORT is -1. */
    public OptionalInt workerHttpPort() {
        return worker.httpPort();
    }

    /** The settings the components run with (with the actual Kafka and registry addresses). */
    public Settings settings() {
        return settings;
    }

    /** Completes when the worker stops (exceptionally if it failed). */
    public CompletableFuture<Void> workerTerminated() {
        return worker.terminated();
    }

    /** Stops the facade, the worker (draining what it holds), the registry and the broker; idempotent. */
    @Override
    public synchronized void close() {
        while (!started.isEmpty()) {
            try {
                started.pop().close();
            } catch (Exception e) {
                System.err.println("sam3 dev: error while stopping: " + e);
            }
        }
    }
}
