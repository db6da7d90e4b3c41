package io.sluice.feed;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RequestStrategyTest {

    private static final long MS = 1_000_000L;

    private final FakeScheduler scheduler = new FakeScheduler();
    private final RecordingCluster cluster = new RecordingCluster();
    private final FixedThrottler throttler = new FixedThrottler(100);
    private final AtomicReference<CircuitBreaker.State> breakerState = new AtomicReference<>(CircuitBreaker.State.CLOSED);
    private final CircuitBreaker breaker = new CircuitBreaker() {
        @Override public void success() { }
        @Override public void failure(int status) { }
        @Override public void failure(Throwable cause) { }
        @Override public State state() { return breakerState.get(); }
    };
    private final RetryStrategy retry = new RetryStrategy() {
        @Override public int retries() { return 2; }
        @Override public Duration initialBackoff() { return Duration.ofMillis(10); }
        @Override public Duration maxBackoff() { return Duration.ofMillis(40); }
    };

    private RequestStrategy strategy(Throttler throttler, int maxPending, boolean block) {
        return new RequestStrategy(cluster, throttler, breaker, retry, scheduler, new StatsCollector(), () -> 0.5,
                                   maxPending, block);
    }

    private RequestStrategy strategy() { return strategy(throttler, 100, true); }

    private CompletableFuture<HttpResponse> enqueue(RequestStrategy strategy, String id, String path) {
        HttpRequest request = new HttpRequest("POST", path, HttpRequest.NO_BODY, false, 0, scheduler.nanoTime() + 1000 * MS);
        return strategy.enqueue(DocumentId.of(id), OperationType.PUT, request);
    }

    @Test
    void sameId_nextIsSentOnlyAfterPreviousCompleted() {
        RequestStrategy strategy = strategy();
        enqueue(strategy, "id:ns:t::a", "1");
        enqueue(strategy, "id:ns:t::a", "2");
        enqueue(strategy, "id:ns:t::a", "3");
        assertEquals(List.of("1"), cluster.paths());
        cluster.get(0).respond(200);
        assertEquals(List.of("1", "2"), cluster.paths());
        cluster.get(1).respond(200);
        assertEquals(List.of("1", "2", "3"), cluster.paths());
    }

    @Test
    void sameId_callbacksOfPreviousRunBeforeNextIsSent() {
        RequestStrategy strategy = strategy();
        List<String> sentWhenCallbackRan = new java.util.ArrayList<>();
        enqueue(strategy, "id:ns:t::a", "1").whenComplete((response, failure) -> sentWhenCallbackRan.addAll(cluster.paths()));
        enqueue(strategy, "id:ns:t::a", "2");
        cluster.get(0).respond(200);
        assertEquals(List.of("1"), sentWhenCallbackRan);
        assertEquals(List.of("1", "2"), cluster.paths());
    }

    @Test
    void sameId_nextWaitsForRetriesOfPrevious() {
        RequestStrategy strategy = strategy();
        enqueue(strategy, "id:ns:t::a", "1");
        enqueue(strategy, "id:ns:t::a", "2");
        cluster.get(0).respond(503);
        scheduler.advance(100 * MS);
        assertEquals(List.of("1", "1"), cluster.paths());
        cluster.get(1).respond(200);
        assertEquals(List.of("1", "1", "2"), cluster.paths());
    }

    @Test
    void differentIds_areSentConcurrently() {
        RequestStrategy strategy = strategy();
        enqueue(strategy, "id:ns:t::a", "a");
        enqueue(strategy, "id:ns:t::b", "b");
        assertEquals(List.of("a", "b"), cluster.paths());
        assertEquals(2, strategy.inflight());
    }

    @Test
    void sameId_chainHoldsOneSlot_freedWhenLastCompletes() {
        RequestStrategy strategy = strategy();
        enqueue(strategy, "id:ns:t::a", "1");
        enqueue(strategy, "id:ns:t::a", "2");
        assertEquals(1, strategy.inflight());
        cluster.get(0).respond(200);
        assertEquals(1, strategy.inflight());
        cluster.get(1).respond(200);
        assertEquals(0, strategy.inflight());
        assertEquals(0, strategy.pending());
    }

    @Test
    void throttlerTarget_limitsDistinctIdsInFlight() {
        RequestStrategy strategy = strategy(new FixedThrottler(2), 100, true);
        enqueue(strategy, "id:ns:t::a", "a");
        enqueue(strategy, "id:ns:t::b", "b");
        enqueue(strategy, "id:ns:t::c", "c");
        assertEquals(List.of("a", "b"), cluster.paths());
        cluster.get(0).respond(200);
        assertEquals(List.of("a", "b", "c"), cluster.paths());
    }

    @Test
    void response429_retriedAfterJitteredBackoff() throws Exception {
        RequestStrategy strategy = strategy();
        CompletableFuture<HttpResponse> result = enqueue(strategy, "id:ns:t::a", "a");
        cluster.get(0).respond(429);
        assertEquals(7_500_000L, scheduler.nextDelay()); // 10 ms · (0.5 + 0.5 · 0.5)
        scheduler.advance(7 * MS);
        assertEquals(1, cluster.count());
        scheduler.advance(MS);
        assertEquals(2, cluster.count());
        cluster.get(1).respond(200);
        assertEquals(200, result.get().code());
    }

    @Test
    void response429_tellsThrottler() {
        RequestStrategy strategy = strategy();
        enqueue(strategy, "id:ns:t::a", "a");
        enqueue(strategy, "id:ns:t::b", "b");
        cluster.get(0).respond(429);
        assertEquals(List.of(2L), throttler.throttled);
    }

    @Test
    void response429_retriedBeyondRetryCount_untilDeadline() throws Exception {
        RequestStrategy strategy = strategy();
        CompletableFuture<HttpResponse> result = enqueue(strategy, "id:ns:t::a", "a");
        for (int i = 0; i < 10; i++) {
            cluster.get(i).respond(429);
            scheduler.advance(50 * MS);
        }
        assertEquals(11, cluster.count());
        assertFalse(result.isDone());
    }

    @Test
    void response429_atDeadline_completesWith429() throws Exception {
        RequestStrategy strategy = strategy();
        CompletableFuture<HttpResponse> result = enqueue(strategy, "id:ns:t::a", "a");
        scheduler.advance(995 * MS);
        cluster.get(0).respond(429);
        assertEquals(429, result.get().code());
        assertEquals(0, scheduler.waiting());
    }

    @Test
    void backoff_doublesPerAttempt_cappedAtMax() {
        RequestStrategy strategy = strategy();
        enqueue(strategy, "id:ns:t::a", "a");
        long[] expected = { 7_500_000L, 15_000_000L, 30_000_000L, 30_000_000L };
        for (int i = 0; i < expected.length; i++) {
            cluster.get(i).respond(429);
            assertEquals(expected[i], scheduler.nextDelay());
            scheduler.advance(expected[i]);
        }
    }

    @Test
    void response503_retriedAtMostRetriesTimes() throws Exception {
        RequestStrategy strategy = strategy();
        CompletableFuture<HttpResponse> result = enqueue(strategy, "id:ns:t::a", "a");
        for (int i = 0; i < 3; i++) {
            cluster.get(i).respond(503);
            scheduler.advance(100 * MS);
        }
        assertEquals(3, cluster.count());
        assertEquals(503, result.get().code());
    }

    @Test
    void response400_isFinal() throws Exception {
        RequestStrategy strategy = strategy();
        CompletableFuture<HttpResponse> result = enqueue(strategy, "id:ns:t::a", "a");
        cluster.get(0).respond(400);
        assertEquals(400, result.get().code());
        assertEquals(0, scheduler.waiting());
    }

    @Test
    void ioException_isRetried() throws Exception {
        RequestStrategy strategy = strategy();
        CompletableFuture<HttpResponse> result = enqueue(strategy, "id:ns:t::a", "a");
        cluster.get(0).fail(new IOException("GOAWAY"));
        scheduler.advance(100 * MS);
        cluster.get(1).respond(200);
        assertEquals(200, result.get().code());
    }

    @Test
    void ioException_afterRetries_failsWithFeedExceptionCarryingId() {
        RequestStrategy strategy = strategy();
        CompletableFuture<HttpResponse> result = enqueue(strategy, "id:ns:t::a", "a");
        for (int i = 0; i < 3; i++) {
            cluster.get(i).fail(new IOException("reset"));
            scheduler.advance(100 * MS);
        }
        ExecutionException e = assertThrows(ExecutionException.class, result::get);
        FeedException cause = assertInstanceOf(FeedException.class, e.getCause());
        assertEquals(DocumentId.of("id:ns:t::a"), cause.documentId().get());
    }

    @Test
    void timeout_isNotRetried() {
        RequestStrategy strategy = strategy();
        CompletableFuture<HttpResponse> result = enqueue(strategy, "id:ns:t::a", "a");
        cluster.get(0).fail(new TimeoutException("slow"));
        assertTrue(result.isCompletedExceptionally());
        assertEquals(1, cluster.count());
    }

    @Test
    void breakerHalfOpen_sendsOneAtATime() {
        breakerState.set(CircuitBreaker.State.HALF_OPEN);
        RequestStrategy strategy = strategy();
        enqueue(strategy, "id:ns:t::a", "a");
        enqueue(strategy, "id:ns:t::b", "b");
        assertEquals(List.of("a"), cluster.paths());
        cluster.get(0).respond(200);
        assertEquals(List.of("a", "b"), cluster.paths());
    }

    @Test
    void breakerGoingHalfOpen_reconnectsOnce() {
        RequestStrategy strategy = strategy();
        enqueue(strategy, "id:ns:t::a", "a");
        assertEquals(0, cluster.reconnects);
        breakerState.set(CircuitBreaker.State.HALF_OPEN);
        cluster.get(0).respond(503);
        scheduler.advance(100 * MS);
        enqueue(strategy, "id:ns:t::b", "b");
        assertEquals(1, cluster.reconnects);
        breakerState.set(CircuitBreaker.State.CLOSED);
        enqueue(strategy, "id:ns:t::c", "c");
        breakerState.set(CircuitBreaker.State.HALF_OPEN);
        enqueue(strategy, "id:ns:t::d", "d");
        assertEquals(2, cluster.reconnects);
    }

    @Test
    void breakerOpen_abortsWaitingAndNewOperations() {
        RequestStrategy strategy = strategy(new FixedThrottler(1), 100, true);
        enqueue(strategy, "id:ns:t::a", "a");
        CompletableFuture<HttpResponse> waiting = enqueue(strategy, "id:ns:t::b", "b");
        breakerState.set(CircuitBreaker.State.OPEN);
        cluster.get(0).respond(503);
        scheduler.advance(100 * MS);
        assertTrue(waiting.isCompletedExceptionally());
        assertTrue(enqueue(strategy, "id:ns:t::c", "c").isCompletedExceptionally());
        assertEquals(1, cluster.count());
    }

    @Test
    void full_whenBlocking_waitsUntilABatchCompleted() throws Exception {
        RequestStrategy strategy = strategy(throttler, 16, true); // batches of 2
        for (int i = 0; i < 16; i++) enqueue(strategy, "id:ns:t::" + i, "" + i);
        assertEquals(16, strategy.pending());
        CompletableFuture<CompletableFuture<HttpResponse>> blocked = CompletableFuture.supplyAsync(() -> enqueue(strategy, "id:ns:t::x", "x"));
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> { while (strategy.waitingForRoom() == 0) Thread.onSpinWait(); });
        cluster.get(0).respond(200);
        cluster.get(1).respond(200);
        CompletableFuture<HttpResponse> last = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> blocked.get());
        assertEquals(17, cluster.count());
        assertEquals(15, strategy.pending());
        cluster.get(16).respond(200);
        assertEquals(200, last.get().code());
    }

    @Test
    void full_whenNotBlocking_failsAtOnce() {
        RequestStrategy strategy = strategy(throttler, 2, false);
        enqueue(strategy, "id:ns:t::a", "a");
        enqueue(strategy, "id:ns:t::a", "b");
        CompletableFuture<HttpResponse> third = enqueue(strategy, "id:ns:t::c", "c");
        ExecutionException e = assertThrows(ExecutionException.class, third::get);
        assertTrue(e.getCause().getMessage().contains("Client is full"), e.getCause().getMessage());
    }

    @Test
    void close_failsOperationsNotYetSent() {
        RequestStrategy strategy = strategy(new FixedThrottler(1), 100, true);
        enqueue(strategy, "id:ns:t::a", "a");
        CompletableFuture<HttpResponse> waiting = enqueue(strategy, "id:ns:t::b", "b");
        strategy.close();
        assertTrue(waiting.isCompletedExceptionally());
    }

}
