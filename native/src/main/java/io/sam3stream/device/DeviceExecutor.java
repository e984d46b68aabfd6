package io.sam3stream.device;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * The one thread that owns an {@link IslandDevice}: it opens the device, runs every task handed to it in
 * submission order, and closes the device. ttnn dispatches from a single host thread (two threads issuing
 * device work race), and this keeps that rule in one place while any number of callers wait on futures.
 */
public final class DeviceExecutor implements AutoCloseable {

    /** Work to run on the device's thread. */
    @FunctionalInterface
    public interface DeviceTask<T> {
        T run(IslandDevice device);
    }

    private final ExecutorService thread;
    private final IslandDevice device;
    private volatile boolean closed;

    private DeviceExecutor(ExecutorService thread, IslandDevice device) {
        this.thread = thread;
        this.device = device;
    }

    /**
     * Starts the device thread and opens the device on it.
     *
     * @throws DeviceException if the device cannot be opened (the thread is stopped again)
     */
    public static DeviceExecutor open(DeviceOptions options, BackboneConfig backbone, FusionEncoderConfig encoder) {
        ExecutorService thread = Executors.newSingleThreadExecutor(task -> {
            Thread t = new Thread(task, "sam3-device");
            t.setDaemon(true);
            return t;
        });
        try {
            IslandDevice device = await(thread.submit(() -> IslandDevice.open(options, backbone, encoder)));
            return new DeviceExecutor(thread, device);
        } catch (RuntimeException | Error e) {
            thread.shutdownNow();
            throw e;
        }
    }

    /**
     * Queues a task for the device thread.
     *
     * @throws DeviceException ({@link DeviceStatus#INVALID_STATE}) once the executor is closed
     */
    public <T> CompletableFuture<T> submit(DeviceTask<T> task) {
        if (closed) {
            throw closedError();
        }
        try {
            return CompletableFuture.supplyAsync(() -> task.run(device), thread);
        } catch (RejectedExecutionException e) {
            throw closedError();
        }
    }

    /** Runs a task on the device thread and waits for it; its exception is rethrown here. */
    public <T> T call(DeviceTask<T> task) {
        return await(submit(task));
    }

    /** Closes the device on its thread, after the tasks already queued, then stops the thread. Idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            await(CompletableFuture.runAsync(device::close, thread));
        } finally {
            thread.shutdown();
            try {
                thread.awaitTermination(1, TimeUnit.MINUTES);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static DeviceException closedError() {
        return new DeviceException(DeviceStatus.INVALID_STATE, "the device executor is closed");
    }

    private static <T> T await(Future<T> future) {
        try {
            return future.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DeviceException(DeviceStatus.INVALID_STATE, "interrupted while waiting for the device", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof CompletionException && cause.getCause() != null) {
                cause = cause.getCause();
            }
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new DeviceException(DeviceStatus.INTERNAL, "device task failed: " + cause, cause);
        }
    }
}
