package io.sam3stream.schemas.registry;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class MissingSchemaIdsTest {

    private final AtomicLong now = new AtomicLong(1_000);

    @Test
    void anIdIsMissingUntilItsTtlHasPassed() {
        MissingSchemaIds missing = new MissingSchemaIds(Duration.ofNanos(100), 10, now::get);
        missing.add(7);

        now.addAndGet(99);
        assertTrue(missing.contains(7));
        now.addAndGet(1);
        assertFalse(missing.contains(7), "the registry may know it by now");
        assertFalse(missing.contains(8));
    }

    @Test
    void aZeroTtlRemembersNothing() {
        MissingSchemaIds missing = new MissingSchemaIds(Duration.ZERO, 10, now::get);
        missing.add(7);
        assertFalse(missing.contains(7));
    }

    @Test
    void aFullMemoryStartsOverRatherThanGrow() {
        MissingSchemaIds missing = new MissingSchemaIds(Duration.ofSeconds(1), 2, now::get);
        missing.add(1);
        missing.add(2);
        missing.add(3);

        assertFalse(missing.contains(1));
        assertFalse(missing.contains(2));
        assertTrue(missing.contains(3));
    }
}
