package io.sam3stream.operations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class BusyTimeTest {

    private final AtomicLong now = new AtomicLong(1_000);

    private void advance(Duration d) {
        now.addAndGet(d.toNanos());
    }

    @Test
    void busyTimeCountsTheJobUnderWayAndOnlyTimeSpentInJobs() {
        BusyTime busy = new BusyTime(now::get);
        busy.begin();
        advance(Duration.ofMillis(1500));
        assertEquals(1.5, busy.seconds(), 1e-9, "a long forward counts while it runs");
        busy.end();
        advance(Duration.ofSeconds(10)); // idle
        busy.begin();
        advance(Duration.ofMillis(500));
        busy.end();
        assertEquals(2.0, busy.seconds(), 1e-9);
    }

    @Test
    void jobsDoNotOverlap() {
        BusyTime busy = new BusyTime(now::get);
        assertThrows(IllegalStateException.class, busy::end);
        busy.begin();
        assertThrows(IllegalStateException.class, busy::begin);
    }
}
