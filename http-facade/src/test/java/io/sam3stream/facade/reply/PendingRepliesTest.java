package io.sam3stream.facade.reply;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sam3stream.facade.http.ApiException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class PendingRepliesTest {

    private final ScheduledThreadPoolExecutor deadlines = new ScheduledThreadPoolExecutor(1);
    private final List<String> events = new ArrayList<>();
    private final PendingReplies pending = new PendingReplies(3, deadlines, new ReplyEvents() {
        @Override
        public synchronized void delivered(Duration roundTrip) {
            events.add("delivered");
        }

        @Override
        public synchronized void dropped(DropReason reason) {
            events.add("dropped " + reason);
        }
    });

    PendingRepliesTest() {
        deadlines.setRemoveOnCancelPolicy(true); // as the facade runs it
    }

    @AfterEach
    void stop() {
        deadlines.shutdownNow();
    }

    @Test
    void aReplyCompletesOnlyTheCallWithItsCorrelationId() throws Exception {
        CompletableFuture<byte[]> a = pending.register("a", 0, Duration.ofMinutes(1));
        CompletableFuture<byte[]> b = pending.register("b", 0, Duration.ofMinutes(1));

        assertTrue(pending.deliver("b", new byte[] {2}));

        assertFalse(a.isDone());
        assertArrayEquals(new byte[] {2}, b.get());
        assertEquals(1, pending.size());
        assertEquals(1, deadlines.getQueue().size(), "only the waiting call's deadline is still queued");
    }

    @Test
    void theDeadlineEndsTheCallWith504AndTheLateReplyIsCountedNotDelivered() throws Exception {
        CompletableFuture<byte[]> call = pending.register("slow", 0, Duration.ofMillis(50));

        ExecutionException timedOut = assertThrows(ExecutionException.class, () -> call.get(5, TimeUnit.SECONDS));
        ApiException error = assertInstanceOf(ApiException.class, timedOut.getCause());
        assertEquals(504, error.status());
        assertEquals(0, pending.size(), "purged at its deadline");

        assertFalse(pending.deliver("slow", new byte[] {1}));
        assertEquals(List.of("dropped LATE"), events);
    }

    @Test
    void aReplyNobodyWaitedForIsCountedAsUnknown() {
        assertFalse(pending.deliver("never-asked", new byte[0]));
        assertFalse(pending.deliver(null, new byte[0]));

        assertEquals(List.of("dropped UNKNOWN", "dropped UNKNOWN"), events);
    }

    @Test
    void losingAReplyPartitionFailsOnlyTheCallsWaitingOnIt() {
        CompletableFuture<byte[]> onZero = pending.register("a", 0, Duration.ofMinutes(1));
        CompletableFuture<byte[]> onOne = pending.register("b", 1, Duration.ofMinutes(1));

        pending.failPartitions(List.of(0), ApiException.unavailable("moved"));

        assertTrue(onZero.isCompletedExceptionally());
        assertFalse(onOne.isDone());
        assertFalse(pending.deliver("a", new byte[0]), "the moved call is over");
        assertEquals(List.of("dropped LATE"), events);
    }

    @Test
    void theTableIsBounded() {
        pending.register("a", 0, Duration.ofMinutes(1));
        pending.register("b", 0, Duration.ofMinutes(1));
        pending.register("c", 0, Duration.ofMinutes(1));

        ApiException full = assertThrows(ApiException.class, () -> pending.register("d", 0, Duration.ofMinutes(1)));

        assertEquals(429, full.status());
        pending.failAll(ApiException.unavailable("stopping"));
        assertEquals(0, pending.size());
    }
}
