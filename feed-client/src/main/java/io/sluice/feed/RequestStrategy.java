package io.sluice.feed;

import java.io.IOException;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.DoubleSupplier;

/**
 * Sends operations through a {@link Cluster}: one at a time per document id, as many ids at once as the
 * {@link Throttler} allows, retrying with backoff as the {@link RetryStrategy} says, until the {@link CircuitBreaker}
 * opens.
 * <p>
 * Ordering: a "done" future of the latest operation for each id is kept in {@code inflightById}. A new operation either
 * finds no previous one, and queues for a slot, or chains on the previous one's done future and is sent when that
 * completes, retries included, inheriting its slot. A slot is freed when the last operation of an id's chain completes.
 * An operation is done only after its result future has completed and run the callbacks attached to it (those without
 * an executor), so a caller sees an id's results in the order the operations were enqueued.
 * <p>
 * There is no dispatcher thread: whoever frees a slot or enqueues an operation drains the ready queue, one drainer at a
 * time. Memory is bounded by {@code maxPending} operations held in total; beyond that {@link #enqueue} fails, or blocks
 * until a batch of them has completed (see {@link Permits}).
 */
final class RequestStrategy implements AutoCloseable {

    private final Cluster cluster;
    private final Throttler throttler;
    private final CircuitBreaker breaker;
    private final RetryStrategy retry;
    private final Scheduler scheduler;
    private final StatsCollector stats;
    private final DoubleSupplier random;
    private final boolean blockWhenFull;
    private final int maxPending;

    private final ConcurrentHashMap<DocumentId, CompletableFuture<Void>> inflightById = new ConcurrentHashMap<>();
    private final Queue<Operation> ready = new ConcurrentLinkedQueue<>();
    private final AtomicLong inflight = new AtomicLong();
    private final AtomicInteger drainers = new AtomicInteger();
    private final Permits pending;
    private final Object idle = new Object();
    private final AtomicReference<CircuitBreaker.State> seenState = new AtomicReference<>(CircuitBreaker.State.CLOSED);
    private volatile boolean closed = false;

    RequestStrategy(Cluster cluster, Throttler throttler, CircuitBreaker breaker, RetryStrategy retry,
                    Scheduler scheduler, StatsCollector stats, DoubleSupplier random, int maxPending,
                    boolean blockWhenFull) {
        if (maxPending < 1) throw new IllegalArgumentException("Max pending operations must be positive, but was " + maxPending);
        this.cluster = cluster;
        this.throttler = throttler;
        this.breaker = breaker;
        this.retry = retry;
        this.scheduler = scheduler;
        this.stats = stats;
        this.random = random;
        this.maxPending = maxPending;
        this.blockWhenFull = blockWhenFull;
        this.pending = new Permits(maxPending, Math.max(1, Math.min(32, maxPending / 8)));
    }

    /**
     * Sends the request once all earlier operations on the same id have completed. The returned future completes with
     * the final response (including 429 or 503 when retries ran out), or exceptionally with a {@link FeedException}
     * for a transport failure, an open breaker, a full client (when not blocking) or a closed client. Callbacks
     * attached to it without an executor have run before the next operation on the same id is sent.
     */
    CompletableFuture<HttpResponse> enqueue(DocumentId id, OperationType type, HttpRequest request) {
        if (closed) return CompletableFuture.failedFuture(new FeedException(id, "Client is closed"));
        if (breaker.state() == CircuitBreaker.State.OPEN)
            return CompletableFuture.failedFuture(new FeedException(id, "Circuit breaker is open: operation aborted"));
        if ( ! acquirePending(id))
            return CompletableFuture.failedFuture(new FeedException(id, "Client is full: " + maxPending + " operations pending"));

        Operation operation = new Operation(id, type, request);
        CompletableFuture<Void> previous = inflightById.put(id, operation.done);
        operation.done.thenRun(() -> completed(id, operation.done));
        if (previous == null) {
            ready.add(operation);
            drain();
        }
        else {
            previous.thenRun(() -> send(operation));
        }
        return operation.result;
    }

    private boolean acquirePending(DocumentId id) {
        if ( ! blockWhenFull) return pending.tryAcquire();
        if (pending.tryAcquire()) return true;
        ReadBatchedEndPoint.releaseHeldWrite(); // the requests this thread holds back may be what frees room
        try {
            pending.acquire();
            return true;
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new FeedException(id, "Interrupted while waiting for room in the client", e);
        }
    }

    private void completed(DocumentId id, CompletableFuture<Void> done) {
        pending.release();
        if (inflightById.remove(id, done)) { // last of its chain: free the slot
            inflight.decrementAndGet();
            drain();
        }
        if (pending.available() == maxPending)
            synchronized (idle) { idle.notifyAll(); }
    }

    /** Sends ready operations while there are free slots; only one thread drains at a time. */
    private void drain() {
        if (drainers.getAndIncrement() != 0) return;
        int missed = 1;
        do {
            while (true) {
                CircuitBreaker.State state = breakerState();
                if (state == CircuitBreaker.State.OPEN) {
                    abortReady();
                    break;
                }
                long target = state == CircuitBreaker.State.HALF_OPEN ? 1 : throttler.targetInflight();
                if (inflight.get() >= target) break;
                Operation operation = ready.poll();
                if (operation == null) break;
                inflight.incrementAndGet();
                send(operation);
            }
            missed = drainers.addAndGet(-missed);
        } while (missed != 0);
    }

    /**
     * The breaker's state. When it has gone from closed to half-open since last seen, the cluster is told to reconnect
     * (once per such change): connections that stopped working are often stuck, not slow.
     */
    private CircuitBreaker.State breakerState() {
        CircuitBreaker.State state = breaker.state();
        if (seenState.get() == state) return state; // the usual case: a read, no write, per send
        CircuitBreaker.State seen = seenState.getAndSet(state);
        if (state == CircuitBreaker.State.HALF_OPEN && seen == CircuitBreaker.State.CLOSED) cluster.reconnect();
        return state;
    }

    private void abortReady() {
        for (Operation operation; (operation = ready.poll()) != null; ) {
            inflight.incrementAndGet(); // completion frees the slot it never held
            operation.fail(new FeedException(operation.id, "Circuit breaker is open: operation aborted"));
        }
    }

    private void send(Operation operation) {
        if (closed) {
            operation.fail(new FeedException(operation.id, "Client was closed: operation aborted"));
            return;
        }
        if (breakerState() == CircuitBreaker.State.OPEN) {
            operation.fail(new FeedException(operation.id, "Circuit breaker is open: operation aborted"));
            return;
        }
        long now = scheduler.nanoTime();
        if (now >= operation.request.deadlineNanos()) {
            operation.timedOut();
            return;
        }
        operation.attempts++;
        operation.sentNanos = now;
        throttler.sent(inflight.get());
        stats.request();
        cluster.dispatch(operation.request, operation);
    }

    private void handle(Operation operation, HttpResponse response) {
        long latency = scheduler.nanoTime() - operation.sentNanos;
        stats.response(response.code(), latency, operation.request.bodySize(), response.body().length);
        operation.lastResponse = response;
        operation.lastFailure = null;
        int code = response.code();
        if (code == 429) {
            throttler.throttled(inflight.get());
            if (retry.retry(operation.type) && retryLater(operation)) return;
        }
        else if (code == 503) {
            breaker.failure(code);
            if (retry.retry(operation.type) && operation.attempts <= retry.retries() && retryLater(operation)) return;
        }
        else if (code >= 500) {
            breaker.failure(code);
        }
        else {
            if (code < 300 || code == 404 || code == 412) breaker.success();
            throttler.success();
        }
        operation.finish(response);
    }

    private void handle(Operation operation, Throwable failure) {
        stats.exception();
        breaker.failure(failure);
        operation.lastFailure = failure;
        operation.lastResponse = null;
        if (retryable(failure) && retry.retry(operation.type) && operation.attempts <= retry.retries()
            && retryLater(operation)) return;
        operation.fail(failure instanceof FeedException ? failure : new FeedException(operation.id, failure));
    }

    /** Schedules another attempt after a jittered exponential backoff, unless that would pass the deadline. */
    private boolean retryLater(Operation operation) {
        long initial = retry.initialBackoff().toNanos();
        long max = retry.maxBackoff().toNanos();
        int doublings = Math.min(operation.attempts - 1, 30);
        long base = initial > (max >> doublings) ? max : Math.min(max, initial << doublings);
        long delay = (long) (base * (0.5 + 0.5 * random.getAsDouble()));
        if (scheduler.nanoTime() + delay >= operation.request.deadlineNanos()) return false;
        try {
            scheduler.schedule(() -> send(operation), delay);
            return true;
        }
        catch (RejectedExecutionException e) { // closing
            return false;
        }
    }

    static boolean retryable(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause())
            if (t instanceof IOException || t instanceof IllegalStateException) return true;
        return false;
    }

    /** Operations (distinct document ids) in flight, including those waiting to be retried. */
    long inflight() { return inflight.get(); }

    /** Operations held by the client: in flight, chained behind another on the same id, or waiting for a slot. */
    int pending() { return maxPending - pending.available(); }

    /** Callers blocked in {@link #enqueue} until there is room. */
    int waitingForRoom() { return pending.waiting(); }

    long nanoTime() { return scheduler.nanoTime(); }

    /** Waits for every held operation to complete. */
    void awaitIdle() throws InterruptedException {
        synchronized (idle) {
            while (pending() > 0) idle.wait(100);
        }
    }

    /** Stops taking operations; fails those not yet sent. Does not wait; see {@link #awaitIdle()}. */
    @Override public void close() {
        closed = true;
        for (Operation operation; (operation = ready.poll()) != null; ) {
            inflight.incrementAndGet();
            operation.fail(new FeedException(operation.id, "Client was closed: operation aborted"));
        }
    }

    /** One operation and its attempts. It is its own callback, so an attempt allocates nothing here. */
    private final class Operation implements Cluster.Callback {

        final DocumentId id;
        final OperationType type;
        final HttpRequest request;
        final CompletableFuture<HttpResponse> result = new CompletableFuture<>();
        final CompletableFuture<Void> done = new CompletableFuture<>(); // completed after result's callbacks ran
        int attempts = 0;
        long sentNanos;
        HttpResponse lastResponse;
        Throwable lastFailure;

        Operation(DocumentId id, OperationType type, HttpRequest request) {
            this.id = id;
            this.type = type;
            this.request = request;
        }

        @Override public void completed(HttpResponse response) { handle(this, response); }

        @Override public void failed(Throwable cause) { handle(this, cause); }

        void timedOut() {
            if (lastResponse != null) finish(lastResponse);
            else if (lastFailure != null) fail(new FeedException(id, lastFailure));
            else fail(new FeedException(id, "Operation timed out before it could be sent"));
        }

        void finish(HttpResponse response) {
            try {
                result.complete(response);
            }
            finally {
                done.complete(null);
            }
        }

        void fail(Throwable failure) {
            try {
                result.completeExceptionally(failure);
            }
            finally {
                done.complete(null);
            }
        }

    }

}
