package io.sluice.container.document;

import io.sluice.container.HttpStatusException;
import io.sluice.container.ManualClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The queue on its own: admission limits, in-flight limit, per-key order, readiness and cancellation. */
class OperationQueueTest {

    private final ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final List<String> started = new ArrayList<>();
    private final List<CompletableFuture<Void>> running = new ArrayList<>();

    private OperationQueue queue(int maxQueued, long maxBytes, int maxInFlight) {
        return new OperationQueue(maxQueued, Duration.ofSeconds(3), maxBytes, maxInFlight, clock);
    }

    private java.util.function.Supplier<CompletableFuture<?>> op(String name) {
        return () -> {
            started.add(name);
            CompletableFuture<Void> future = new CompletableFuture<>();
            running.add(future);
            return future;
        };
    }

    @Test
    void enqueueReady_startsAtOnceWhenBelowInFlightLimit() {
        OperationQueue queue = queue(10, 1000, 2);
        queue.enqueueReady("a", 0, op("a"));
        queue.enqueueReady("b", 0, op("b"));
        queue.enqueueReady("c", 0, op("c"));
        assertEquals(List.of("a", "b"), started);
        assertEquals(1, queue.queued());
        assertEquals(2, queue.inFlight());
    }

    @Test
    void completion_startsNextInArrivalOrder() {
        OperationQueue queue = queue(10, 1000, 1);
        queue.enqueueReady("a", 0, op("a"));
        queue.enqueueReady("b", 0, op("b"));
        queue.enqueueReady("c", 0, op("c"));
        running.get(0).complete(null);
        assertEquals(List.of("a", "b"), started);
        running.get(1).complete(null);
        assertEquals(List.of("a", "b", "c"), started);
    }

    @Test
    void sameKey_waitsForRunningOperation() {
        OperationQueue queue = queue(10, 1000, 10);
        queue.enqueueReady("a", 0, op("a1"));
        queue.enqueueReady("a", 0, op("a2"));
        queue.enqueueReady("b", 0, op("b1"));
        assertEquals(List.of("a1", "b1"), started);
        running.get(0).complete(null);
        assertEquals(List.of("a1", "b1", "a2"), started);
    }

    @Test
    void notReady_holdsBackLaterSameKeyButNotOthers() {
        OperationQueue queue = queue(10, 1000, 10);
        OperationQueue.Ticket first = queue.enqueue("a", 0, op("a1"));
        queue.enqueueReady("a", 0, op("a2"));
        queue.enqueueReady("b", 0, op("b1"));
        assertEquals(List.of("b1"), started);
        first.ready(0);
        assertEquals(List.of("b1", "a1"), started);
    }

    @Test
    void full_refusesWith429() {
        OperationQueue queue = queue(1, 1000, 1);
        queue.enqueueReady("a", 0, op("a"));
        queue.enqueueReady("b", 0, op("b"));
        HttpStatusException e = assertThrows(HttpStatusException.class, () -> queue.enqueueReady("c", 0, op("c")));
        assertEquals(429, e.status());
        assertEquals("Rejecting execution due to overload: 1 requests already enqueued", e.getMessage());
    }

    @Test
    void tooManyBytes_refusesWith429NamingSizes() {
        OperationQueue queue = queue(10, 100, 1);
        queue.enqueueReady("a", 0, op("a"));
        queue.enqueueReady("b", 60, op("b"));
        HttpStatusException e = assertThrows(HttpStatusException.class, () -> queue.enqueueReady("c", 50, op("c")));
        assertEquals("Rejecting execution due to overload: estimated size of operation is 50, total size of queue 110 "
                     + "would exceed queue limit of 100", e.getMessage());
    }

    @Test
    void oneLargeOperation_admittedIntoEmptyQueue() {
        OperationQueue queue = queue(10, 100, 1);
        queue.enqueueReady("a", 0, op("a"));
        queue.enqueueReady("b", 500, op("b"));
        assertEquals(500, queue.queuedBytes());
    }

    @Test
    void oldestReadyOlderThanMaxAge_refuses() {
        OperationQueue queue = queue(10, 1000, 1);
        queue.enqueueReady("a", 0, op("a"));
        queue.enqueueReady("b", 0, op("b"));
        clock.advance(Duration.ofSeconds(3));
        queue.enqueueReady("c", 0, op("c")); // exactly the limit is still fine
        clock.advance(Duration.ofMillis(1));
        HttpStatusException e = assertThrows(HttpStatusException.class, () -> queue.enqueueReady("d", 0, op("d")));
        assertEquals("Rejecting execution due to overload: 3.0 seconds worth of work enqueued", e.getMessage());
    }

    @Test
    void cancel_removesWaitingAndFreesBytes() {
        OperationQueue queue = queue(10, 1000, 1);
        queue.enqueueReady("a", 0, op("a"));
        OperationQueue.Ticket b = queue.enqueueReady("b", 70, op("b"));
        assertTrue(b.cancel());
        assertEquals(0, queue.queued());
        assertEquals(0, queue.queuedBytes());
        running.get(0).complete(null);
        assertEquals(List.of("a"), started);
    }

    @Test
    void failedOperation_freesItsSlot() {
        OperationQueue queue = queue(10, 1000, 1);
        queue.enqueueReady("a", 0, op("a"));
        queue.enqueueReady("b", 0, op("b"));
        running.get(0).completeExceptionally(new IllegalStateException("boom"));
        assertEquals(List.of("a", "b"), started);
    }

    @Test
    void startThrowingError_freesItsSlotAndTheQueueMovesOn() {
        OperationQueue queue = queue(10, 1000, 1);
        queue.enqueueReady("a", 0, () -> {
            started.add("a");
            throw new AssertionError("a start that throws an Error");
        });
        queue.enqueueReady("b", 0, op("b"));
        assertEquals(List.of("a", "b"), started);
        assertEquals(1, queue.inFlight());
    }

}
