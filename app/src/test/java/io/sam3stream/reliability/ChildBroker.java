package io.sam3stream.reliability;

import io.sam3stream.broker.LoopbackPorts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A Kafka broker in a child JVM ({@link ChildBrokerMain}) with a fixed data directory and fixed ports, so that it
 * can be killed and started again as the same broker.
 */
final class ChildBroker implements AutoCloseable {

    private final Path dataDir;
    private final int brokerPort;
    private final int controllerPort;
    private final long maxMessageBytes;
    private final Path log;
    private Process process;

    /** A broker on two free loopback ports; not started. */
    ChildBroker(Path dataDir, long maxMessageBytes, Path log) throws IOException {
        this.dataDir = dataDir;
        this.brokerPort = LoopbackPorts.free();
        this.controllerPort = LoopbackPorts.free();
        this.maxMessageBytes = maxMessageBytes;
        this.log = log;
    }

    String bootstrapServers() {
        return "127.0.0.1:" + brokerPort;
    }

    /** Starts the process and waits until the broker serves. */
    void start(Duration timeout) throws IOException, InterruptedException {
        long from = Files.exists(log) ? Files.size(log) : 0;
        process = new ProcessBuilder(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx768m", "-XX:+UseSerialGC",
                "-cp", System.getProperty("java.class.path"),
                ChildBrokerMain.class.getName(),
                dataDir.toString(), Integer.toString(brokerPort), Integer.toString(controllerPort),
                Long.toString(maxMessageBytes)))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .start();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!logSince(from).contains(ChildBrokerMain.READY)) {
            if (!process.isAlive() || System.nanoTime() > deadline) {
                throw new AssertionError("the broker did not start within " + timeout + ":\n" + logTail());
            }
            Thread.sleep(50);
        }
    }

    /** SIGKILL: the broker gets no chance to flush, close its logs or tell anyone. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new AssertionError("the broker did not die");
        }
    }

    String logTail() {
        String all = logSince(0);
        return all.substring(Math.max(0, all.length() - 4000));
    }

    private String logSince(long offset) {
        try {
            byte[] bytes = Files.readAllBytes(log);
            return new String(bytes, (int) Math.min(offset, bytes.length), (int) Math.max(0, bytes.length - offset),
                    java.nio.charset.StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    /** Stops the broker cleanly if it runs. */
    @Override
    public void close() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroy();
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }

}
