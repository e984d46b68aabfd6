package io.sam3stream.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The device's owner thread: one thread runs everything, failures come back to the caller. */
class DeviceExecutorTest {

    @Test
    void tasksFromManyCallersAllRunOnTheOneDeviceThread() throws Exception {
        Set<String> threads = ConcurrentHashMap.newKeySet();
        ExecutorService callers = Executors.newFixedThreadPool(4);
        try (DeviceExecutor device = DeviceExecutor.open(DeviceOptions.host(1), TinyIslands.BACKBONE,
                TinyIslands.ENCODER)) {
            List<Future<String>> results = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                results.add(callers.submit(() -> device.call(d -> {
                    threads.add(Thread.currentThread().getName());
                    return d.describe();
                })));
            }
            for (Future<String> r : results) {
                r.get();
            }
        } finally {
            callers.shutdown();
        }

        assertEquals(Set.of("sam3-device"), threads);
    }

    @Test
    void aFailingTaskThrowsItsDeviceExceptionAtTheCaller() {
        try (DeviceExecutor device = DeviceExecutor.open(DeviceOptions.host(1), TinyIslands.BACKBONE,
                TinyIslands.ENCODER)) {
            DeviceException e = assertThrows(DeviceException.class,
                    () -> device.call(d -> d.runBackbone(TinyIslands.image())));

            assertEquals(DeviceStatus.INVALID_STATE, e.status());
        }
    }

    @Test
    void openFailuresReachTheCaller() {
        FusionEncoderConfig bad = new FusionEncoderConfig(8, 1, 3, 16);

        DeviceException e = assertThrows(DeviceException.class,
                () -> DeviceExecutor.open(DeviceOptions.host(1), TinyIslands.BACKBONE, bad));

        assertEquals(DeviceStatus.INVALID_ARGUMENT, e.status());
    }

    @Test
    void workSubmittedAfterCloseIsRejectedAndCloseIsIdempotent() {
        DeviceExecutor device = DeviceExecutor.open(DeviceOptions.host(1), TinyIslands.BACKBONE, TinyIslands.ENCODER);
        CompletableFuture<String> queued = device.submit(IslandDevice::describe);
        device.close();
        device.close();

        assertEquals(DeviceStatus.INVALID_STATE,
                assertThrows(DeviceException.class, () -> device.submit(IslandDevice::describe)).status());
        assertEquals(true, queued.isDone() && !queued.isCompletedExceptionally());
    }
}
