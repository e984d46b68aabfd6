package io.sam3stream.kafka;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The worker command ({@code sam3 worker}, the worker jar's main class) in a child JVM with the test classpath and
 * the tiny checkpoint, so a test can kill it the way an operating system does (SIGKILL) or stop it the way an
 * orchestrator does (SIGTERM).
 */
public final class ChildWorker implements AutoCloseable {

    private final Process process;
    private final Path readyFile;
    private final Path log;

    private ChildWorker(Process process, Path readyFile, Path log) {
        this.process = process;
        this.readyFile = readyFile;
        this.log = log;
    }

    /** Starts a worker with {@code env}; its output is appended to {@code log}. */
    public static ChildWorker start(Map<String, String> env, Path readyFile, Path log) throws IOException {
        return start(List.of(), env, readyFile, log);
    }

    /**
     * Starts a worker under a launcher, e.g. {@code ip netns exec <namespace>} to run it in its own network
     * namespace; its output is appended to {@code log}.
     */
    public static ChildWorker start(List<String> launcher, Map<String, String> env, Path readyFile, Path log)
            throws IOException {
        List<String> command = new ArrayList<>(launcher);
        command.addAll(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx1g", "-XX:+UseSerialGC", "-Dai.djl.offline=true",
                "-cp", System.getProperty("java.class.path"),
                "io.sam3stream.worker.WorkerCommand",
                "--checkpoint", TinyEngine.checkpoint().toString(),
                "--config", TinyEngine.config().toString(),
                "--ready-file", readyFile.toString()));
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        builder.environment().putAll(env);
        return new ChildWorker(builder.start(), readyFile, log);
    }

    /** Whether the worker's process is still running. */
    public boolean isAlive() {
        return process.isAlive();
    }

    /** Waits until the worker reports READY through its ready file; false when it did not within {@code timeout}. */
    public boolean awaitReady(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!Files.exists(readyFile)) {
            if (System.nanoTime() > deadline || !process.isAlive()) {
                return false;
            }
            Thread.sleep(50);
        }
        return true;
    }

    /** SIGKILL: the worker gets no chance to finish anything. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    /** SIGTERM, then the exit status; -1 when it did not exit within {@code timeout}. */
    public int terminate(Duration timeout) throws InterruptedException {
        process.destroy();
        return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS) ? process.exitValue() : -1;
    }

    /** The last lines the worker printed, for a failure message. */
    public String logTail() {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    /** Kills the worker if it still runs. */
    @Override
    public void close() {
        if (process.isAlive()) {
            try {
                kill();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
