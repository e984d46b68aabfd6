package io.sam3stream.cli;

import io.sam3stream.config.Knob;
import io.sam3stream.config.Settings;
import io.sam3stream.dev.EmbeddedKafkaBroker;
import io.sam3stream.engine.EngineFactory;
import io.sam3stream.engine.ModelSource;
import io.sam3stream.facade.FacadeConfig;
import io.sam3stream.facade.FacadeServer;
import io.sam3stream.kafka.WorkerService;
import io.sam3stream.schemas.registry.embedded.EmbeddedSchemaRegistry;
import io.sam3stream.weights.CheckpointException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code sam3 dev}: the whole service in one process — an embedded single-node KRaft broker, the embedded schema
 * registry, one worker and the HTTP facade — until Ctrl-C, which stops everything in reverse order.
 */
@Command(name = "dev", mixinStandardHelpOptions = true,
        description = {"Starts an embedded Kafka broker (data reused across restarts), the embedded schema registry,"
                + " one worker and the HTTP facade in this process; Ctrl-C stops them all.",
            "With --kafka and --schema-registry it joins an existing cluster instead."})
public final class DevCommand implements Callable<Integer> {

    /** Printed once the worker is warmed up and the facade listens; tt-model-manager waits for this text. */
    public static final String READY_LINE = "Application startup complete";

    @Spec
    private CommandSpec spec;

    @Mixin
    private ModelOptions model;

    @Option(names = "--host", defaultValue = "127.0.0.1", description = "HTTP bind address (default: ${DEFAULT-VALUE}).")
    private String host;

    @Option(names = "--port", description = "HTTP port (default: SAM3_PORT, 20000).")
    private Integer port;

    @Option(names = "--data-dir", defaultValue = "data/kafka", paramLabel = "<dir>",
            description = "Embedded broker's log directory, reused across restarts (default: ${DEFAULT-VALUE}).")
    private Path dataDir;

    @Option(names = "--kafka-port", defaultValue = "9092", description = "Embedded broker port (default: ${DEFAULT-VALUE}).")
    private int kafkaPort;

    @Option(names = "--registry-port", defaultValue = "8081",
            description = "Embedded schema registry port (default: ${DEFAULT-VALUE}).")
    private int registryPort;

    @Option(names = "--kafka", paramLabel = "<host:port>", description = "Join this Kafka cluster instead of embedding one.")
    private String kafka;

    @Option(names = "--schema-registry", paramLabel = "<url>",
            description = "Use this schema registry instead of embedding one.")
    private String schemaRegistry;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        Settings settings = Settings.fromEnvironment();
        out.println("Loading weights ...");
        out.flush();
        ModelSource source;
        try {
            source = model.open(settings);
        } catch (CheckpointException e) {
            spec.commandLine().getErr().println(e.getMessage());
            return 2;
        }
        Deque<AutoCloseable> started = new ArrayDeque<>();
        CountDownLatch stopped = new CountDownLatch(1);
        Thread onCtrlC = new Thread(() -> {
            closeAll(started);
            stopped.countDown();
        }, "sam3-dev-shutdown");
        Runtime.getRuntime().addShutdownHook(onCtrlC);
        try {
            settings = startKafka(settings, started, out);
            if (port != null) {
                settings = settings.with(Knob.SAM3_PORT, port.toString());
            }
            Settings configured = settings;
            java.util.function.Consumer<String> progress = line -> {
                out.println(line);
                out.flush();
            };
            WorkerService worker = new WorkerService(configured,
                    () -> EngineFactory.create(configured, source, progress), progress);
            started.push(worker);
            worker.start();
            worker.ready().join();
            FacadeServer facade = new FacadeServer(FacadeConfig.from(configured, host)).start();
            started.push(facade);
            out.printf("%s: send requests to POST http://%s:%d/predict%n", READY_LINE, host, facade.port());
            out.flush();
            worker.terminated().join();
            return 0;
        } catch (CompletionException e) {
            spec.commandLine().getErr().println("sam3 dev: " + e.getCause());
            return 1;
        } finally {
            closeAll(started);
            try {
                Runtime.getRuntime().removeShutdownHook(onCtrlC);
            } catch (IllegalStateException shuttingDown) {
                stopped.await();
            }
        }
    }

    /** Starts the embedded broker and registry unless an existing cluster was named; returns the settings to use. */
    private Settings startKafka(Settings settings, Deque<AutoCloseable> started, PrintWriter out) throws Exception {
        long maxMessage = settings.getLong(Knob.SAM3_MAX_MESSAGE_BYTES, 1 << 20, Integer.MAX_VALUE);
        String bootstrap = kafka;
        if (bootstrap == null) {
            out.println("Starting Kafka (KRaft) on 127.0.0.1:" + kafkaPort + ", data in " + dataDir.toAbsolutePath()
                    + " ...");
            out.flush();
            EmbeddedKafkaBroker broker = new EmbeddedKafkaBroker(dataDir, kafkaPort, kafkaPort + 1, maxMessage);
            broker.start();
            started.push(broker);
            bootstrap = broker.bootstrapServers();
        }
        String registryUrl = schemaRegistry;
        if (registryUrl == null) {
            EmbeddedSchemaRegistry registry = EmbeddedSchemaRegistry.start(
                    new InetSocketAddress("127.0.0.1", registryPort), bootstrap);
            started.push(registry);
            registryUrl = registry.url().toString();
            out.println("Schema registry at " + registryUrl);
            out.flush();
        }
        return settings.with(Knob.KAFKA_BOOTSTRAP_SERVERS, bootstrap).with(Knob.SCHEMA_REGISTRY_URL, registryUrl);
    }

    /** Stops what started, newest first (facade, worker, registry, broker); idempotent. */
    private static synchronized void closeAll(Deque<AutoCloseable> started) {
        while (!started.isEmpty()) {
            try {
                started.pop().close();
            } catch (Exception e) {
                System.err.println("sam3 dev: error while stopping: " + e);
            }
        }
    }
}
