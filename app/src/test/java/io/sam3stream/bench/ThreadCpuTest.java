package io.sam3stream.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class ThreadCpuTest {

    @Test
    void threadsDifferingOnlyInTheirNumbersFormOneGroup() {
        assertEquals("sam3-host-N", ThreadCpu.group("sam3-host-2"));
        assertEquals("HttpClient-N-Worker-N", ThreadCpu.group("HttpClient-7-Worker-0"));
        assertEquals("GC Thread#N", ThreadCpu.group("GC Thread#3"));
        assertEquals("main", ThreadCpu.group("main"));
    }

    @Test
    void aBusyThreadsCpuTimeIsChargedToItsGroupPerUnit() throws Exception {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        CountDownLatch spun = new CountDownLatch(1);
        CountDownLatch measured = new CountDownLatch(1);
        ThreadCpu before = ThreadCpu.snapshot();
        Thread spinner = new Thread(() -> {
            while (threads.getCurrentThreadCpuTime() < 50_000_000L) {
                Thread.onSpinWait();
            }
            spun.countDown();
            awaitQuietly(measured); // alive in the second snapshot
        }, "spinner-7");
        spinner.start();
        spun.await();
        ThreadCpu after = ThreadCpu.snapshot();
        measured.countDown();
        spinner.join();

        Map<String, Double> perUnit = after.millisPerUnitSince(before, 2);
        assertTrue(perUnit.get("spinner-N") >= 25.0, "50 ms of CPU over 2 units: " + perUnit);
        // the process clock advances in scheduler ticks (10 ms on Linux: HotSpot reads times()), the thread clocks in
        // nanoseconds, so the process may lag the spinner by up to two ticks (one at each snapshot)
        double tickMsPerUnit = 10.0 / 2;
        assertTrue(after.processMillisPerUnitSince(before, 2) >= perUnit.get("spinner-N") - 2 * tickMsPerUnit,
                perUnit.toString());
        assertTrue(perUnit.containsKey(ThreadCpu.JVM_AND_NATIVE));
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
