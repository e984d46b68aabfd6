package io.sam3stream.cli;

import io.sam3stream.config.Knob;
import io.sam3stream.config.Settings;
import io.sam3stream.dev.DevStack;
import io.sam3stream.engine.ModelSource;
import io.sam3stream.weights.CheckpointException;
import io.sam3stream.worker.ModelOptions;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;
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

    /**
     * The worker's metrics and probes port unless SAM3_WORKER_HTTP_PORT says otherwise: the port the container
     * images and the Prometheus scrape configuration use, so one dashboard fits both.
     */
    static final String WORKER_HTTP_PORT = "9400";

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

    @Option(names = "--kafka-port", defaultValue = "9092",
            description = "Embedded broker port; its controller uses the next one (default: ${DEFAULT-VALUE}).")
    private int kafkaPort;

    @Option(names = "--registry-port", defaultValue = "8081",
            description = "Embedded schema registry port (default: ${DEFAULT-VALUE}).")
    private int registryPort;

    @Option(names = "--kafka", paramLabel = "<host:port>", description = "Join this Kafka cluster instead of embedding one.")
    private String kafka;

    @Option(names = "--schema-registry", paramLabel = "<url>",
            description = "Use this schema registry instead of embedding one.")
    private String schemaRegistry;

    /** The weights options as parsed (for tests of {@link #chooseModel}). */
    ModelOptions modelOptions() {
        return model;
    }

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        Consumer<String> progress = line -> {
            out.println(line);
            out.flush();
        };
        Settings settings = Settings.fromEnvironment();
        if (port != null) {
            settings = settings.with(Knob.SAM3_PORT, port.toString());
        }
        String workerPortVariable = System.getenv(Knob.SAM3_WORKER_HTTP_PORT.name());
        if (workerPortVariable == null || workerPortVariable.isBlank()) {
            // the knob's default (-1, off) suits a worker someone else deploys; the dev stack is for looking at
            settings = settings.with(Knob.SAM3_WORKER_HTTP_PORT, WORKER_HTTP_PORT);
        }
        settings.ignoredVariables().forEach(progress);
        progress.accept("Loading weights ...");
        ModelSource source;
        try {
            source = chooseModel(model, settings, progress);
        } catch (CheckpointException e) {
            spec.commandLine().getErr().println(e.getMessage());
            return 2;
        }
        DevStack.Options options = new DevStack.Options(host, dataDir, kafkaPort, registryPort, kafka, schemaRegistry);
        DevStack stack;
        try {
            stack = DevStack.start(settings, source, options, progress);
        } catch (CompletionException e) {
            spec.commandLine().getErr().println("sam3 dev: " + e.getCause());
            return 1;
        }
        // Ctrl-C and SIGTERM stop the stack; the worker finishes what it holds first
        Thread onSignal = new Thread(stack::close, "sam3-dev-shutdown");
        Runtime.getRuntime().addShutdownHook(onSignal);
        String url = "http://" + host + ":" + stack.httpPort();
        stack.workerHttpPort().ifPresent(workerPort -> progress.accept("Worker metrics at http://" + host + ":"
                + workerPort + "/metrics, probes /health/live and /health/ready"));
        progress.accept(READY_LINE + ": open " + url + "/ in a browser, or send requests to POST " + url
                + "/predict" + (source.isDemo() ? " (DEMO MODEL: answers are not meaningful)" : ""));
        try {
            stack.workerTerminated().join();
            return 0;
        } catch (CompletionException e) {
            spec.commandLine().getErr().println("sam3 dev: the worker failed: " + e.getCause());
            return 1;
        } finally {
            stack.close();
        }
    }

    /**
     * The weights the command line or the environment names; when neither finds any and the command line named
     * none, the demo model, announced by {@link #demoBanner}. A production worker never falls back like this.
     *
     * @throws CheckpointException when weights named on the command line cannot be opened
     */
    static ModelSource chooseModel(ModelOptions model, Settings settings, Consumer<String> progress) {
        ModelSource source;
        try {
            source = model.open(settings);
        } catch (CheckpointException e) {
            if (model.explicit()) {
                throw e;
            }
            progress.accept(demoBanner(e.getMessage()));
            return ModelSource.demo();
        }
        if (source.isDemo()) {
            progress.accept(demoBanner("--demo was given."));
        }
        return source;
    }

    /** The lines that say, where nobody can miss them, that the stack serves the demo model and how to change it. */
    static String demoBanner(String why) {
        String rule = "=".repeat(100);
        return String.join(System.lineSeparator(), rule,
                "DEMO MODEL. This stack serves a small SAM3 configuration with generated weights: every stage of the",
                "pipeline runs, the API, Kafka path and page are real, but its masks and scores are NOT meaningful.",
                "Why: " + why,
                "For the real model, fetch the gated checkpoint once (access granted on Hugging Face):",
                "  hf download " + Knob.HF_MODEL.defaultValue() + " sam3.pt config.json --revision "
                        + Knob.TT_WEIGHTS_REVISION.defaultValue(),
                "then keep it in the Hugging Face cache, or set SAM3_WEIGHTS_DIR to the folder holding it, and"
                        + " restart.",
                rule);
    }
}
