package io.sam3stream.worker;

import io.sam3stream.config.Settings;
import io.sam3stream.engine.EngineFactory;
import io.sam3stream.kafka.WorkerService;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code sam3 worker}: one Kafka worker in this process, until SIGTERM. On SIGTERM it stops taking requests,
 * finishes and commits the ones in flight, publishes STOPPED, closes the engine and exits 0; a worker that fails on
 * its own (fenced by a newer instance, say) exits 1 for its supervisor to restart it.
 */
@Command(name = "worker", mixinStandardHelpOptions = true,
        description = {"Consumes SegmentationRequest records, answers each with one SegmentationResult (exactly once,"
                + " in Kafka transactions) and reports its state on the workers topic. Everything but the weights"
                + " comes from the environment (KAFKA_BOOTSTRAP_SERVERS, SCHEMA_REGISTRY_URL, SAM3_*, KAFKA_*)."})
public final class WorkerCommand implements Callable<Integer> {

    private static final Logger LOG = LoggerFactory.getLogger(WorkerCommand.class);

    @Mixin
    private ModelOptions model;

    @Option(names = "--ready-file", paramLabel = "<path>",
            description = "A file created when the worker is READY and removed when it drains or fails (for"
                    + " container health checks).")
    private Path readyFile;

    /** The worker jar's entry point: {@code java -jar sam3-worker.jar [options]}, what the worker image runs. */
    public static void main(String[] args) {
        System.exit(new CommandLine(new WorkerCommand()).execute(args));
    }

    @Override
    public Integer call() {
        Settings settings = Settings.fromEnvironment();
        settings.ignoredVariables().forEach(LOG::warn);
        WorkerService service = new WorkerService(settings,
                () -> EngineFactory.create(settings, model.open(settings), LOG::info));
        removeReadyFile(); // left over from a previous run
        // The JVM reports a process ended by SIGTERM with status 143 even after its shutdown hooks ran; a worker
        // that drained cleanly ends with 0 instead, so the hook ends the process itself once the worker stopped.
        Thread onSigterm = new Thread(() -> {
            removeReadyFile();
            service.stop();
            Runtime.getRuntime().halt(service.terminated().isCompletedExceptionally() ? 1 : 0);
        }, "sam3-worker-shutdown");
        Runtime.getRuntime().addShutdownHook(onSigterm);
        service.start();
        service.ready().thenRun(this::createReadyFile);
        try {
            service.terminated().join();
            return 0;
        } catch (CompletionException failed) {
            removeReadyFile();
            return 1;
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(onSigterm);
            } catch (IllegalStateException shuttingDown) {
                // the hook is stopping the worker and ends the process
            }
        }
    }

    private void createReadyFile() {
        if (readyFile != null) {
            try {
                Files.write(readyFile, new byte[0]);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot create the ready file " + readyFile, e);
            }
        }
    }

    private void removeReadyFile() {
        if (readyFile != null) {
            try {
                Files.deleteIfExists(readyFile);
            } catch (IOException e) {
                LOG.warn("cannot remove the ready file {}: {}", readyFile, e.toString());
            }
        }
    }
}
