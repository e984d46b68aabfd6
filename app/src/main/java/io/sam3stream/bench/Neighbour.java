package io.sam3stream.bench;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A CPU-bound neighbour for a measurement that must hold "with other work beside it": {@code sam3 bench blocks
 * --runs 10} (full-size ViT blocks on two threads) in fresh processes, one after another, from {@link #start} until
 * {@link #close}. Its output is discarded; only the load it puts on the cores matters.
 */
final class Neighbour implements AutoCloseable {

    private static final List<String> ARGUMENTS = List.of("bench", "blocks", "--runs", "10");

    private final Thread loop;
    /** Ends the neighbour's process with this JVM when it exits without {@link #close} (an error, Ctrl-C). */
    private final Thread exitHook;
    private volatile boolean stopping;
    private volatile Process current;
    private volatile String failure;

    private Neighbour() {
        loop = new Thread(this::runLoop, "sam3-bench-neighbour");
        loop.setDaemon(true);
        exitHook = new Thread(this::stopProcess, "sam3-bench-neighbour-exit");
    }

    /** Starts the neighbour; it runs until closed. */
    static Neighbour start() {
        Neighbour neighbour = new Neighbour();
        Runtime.getRuntime().addShutdownHook(neighbour.exitHook);
        neighbour.loop.start();
        return neighbour;
    }

    private void runLoop() {
        while (!stopping) {
            try {
                Process process = new ProcessBuilder(BenchProcess.command(List.of(), ARGUMENTS))
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                        .redirectError(ProcessBuilder.Redirect.DISCARD)
                        .start();
                current = process;
                if (stopping) {
                    process.destroyForcibly(); // close() ran between the check and the start
                }
                int status = process.waitFor();
                if (status != 0 && !stopping) {
                    failure = "the neighbour (sam3 " + String.join(" ", ARGUMENTS) + ") exited with status " + status;
                    return;
                }
            } catch (IOException e) {
                failure = "could not start the neighbour process: " + e.getMessage();
                return;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /**
     * Throws when the neighbour stopped on its own, so that no figure is reported as measured beside it when it was
     * not.
     */
    void check() {
        if (failure != null) {
            throw new IllegalStateException(failure);
        }
    }

    /** Stops the loop and the process it is running, and waits for both. */
    @Override
    public void close() throws InterruptedException {
        stopProcess();
        Process process = current;
        if (process != null) {
            process.waitFor(30, TimeUnit.SECONDS);
        }
        loop.join(TimeUnit.SECONDS.toMillis(30));
        Runtime.getRuntime().removeShutdownHook(exitHook);
    }

    private void stopProcess() {
        stopping = true;
        Process process = current;
        if (process != null) {
            process.destroyForcibly();
        }
    }
}
