package io.sluice.container.document;

import io.sluice.container.FatalErrors;
import io.sluice.container.HttpStatusException;
import org.eclipse.jetty.http.HttpStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * The bounded FIFO of operations waiting for the backend (spec §7.1), and the dispatcher that starts them.
 *
 * <ul>
 *   <li>Admission: {@link #enqueue} refuses with 429 when {@code maxQueued} operations already wait, when the oldest
 *       waiting operation has been ready for longer than {@code maxAge}, or when the operation's estimated size would
 *       take the waiting bytes over {@code maxBytes} (a single operation may exceed it on an empty queue).</li>
 *   <li>Dispatch: at most {@code maxInFlight} operations run at once; the rest wait in arrival order. Operations with
 *       the same key (the document id) never run concurrently and start in arrival order, so they apply in that
 *       order whatever their completion order. An operation whose body is still being read ({@link Ticket#ready} not
 *       yet called) holds back later operations with its key, but not others.</li>
 *   <li>Cancellation: {@link Ticket#cancel} drops a waiting operation (client gone, deadline passed).</li>
 * </ul>
 * No thread of its own and no blocking: dispatch runs on whichever thread enqueues, readies or completes an
 * operation, one thread at a time, and operation starts must not block. Thread-safe.
 */
public final class OperationQueue {

    private static final Logger log = LoggerFactory.getLogger(OperationQueue.class);

    private final int maxQueued;
    private final Duration maxAge;
    private final long maxBytes;
    private final int maxInFlight;
    private final Clock clock;

    private final LinkedList<Ticket> waiting = new LinkedList<>();
    private final Set<String> runningKeys = new HashSet<>();
    private long waitingBytes = 0;
    private int inFlight = 0;
    private boolean dispatching = false;
    private boolean dispatchAgain = false;

    /**
     * @param maxQueued   most operations waiting ({@code maxThrottled}, e.g. 256)
     * @param maxAge      longest time the oldest ready operation may have waited before new ones are refused (3 s)
     * @param maxBytes    most estimated bytes waiting
     * @param maxInFlight most operations started and not yet completed
     * @param clock       for ages
     */
    public OperationQueue(int maxQueued, Duration maxAge, long maxBytes, int maxInFlight, Clock clock) {
        if (maxQueued < 1) throw new IllegalArgumentException("maxQueued must be positive, but was " + maxQueued);
        if (maxBytes < 1) throw new IllegalArgumentException("maxBytes must be positive, but was " + maxBytes);
        if (maxInFlight < 1) throw new IllegalArgumentException("maxInFlight must be positive, but was " + maxInFlight);
        this.maxQueued = maxQueued;
        this.maxAge = Objects.requireNonNull(maxAge, "maxAge");
        this.maxBytes = maxBytes;
        this.maxInFlight = maxInFlight;
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * Admits an operation, not yet ready to start: call {@link Ticket#ready} when its input is complete.
     *
     * @param key           operations with equal keys run one at a time, in arrival order
     * @param estimatedSize bytes the operation is expected to hold while waiting (e.g. its Content-Length), or 0
     * @param start         starts the operation without blocking; its future completes when the operation is done
     *                      (with any value or exception), which frees its slot
     * @throws HttpStatusException 429 with Vespa's text if the queue is full, too old or too large
     */
    public Ticket enqueue(String key, long estimatedSize, Supplier<CompletableFuture<?>> start) {
        Ticket ticket = new Ticket(key, estimatedSize, start);
        synchronized (this) {
            admit(estimatedSize);
            waiting.addLast(ticket);
            waitingBytes += estimatedSize;
        }
        return ticket;
    }

    /** {@link #enqueue} for an operation that is ready at once (no body to wait for); dispatches. */
    public Ticket enqueueReady(String key, long estimatedSize, Supplier<CompletableFuture<?>> start) {
        Ticket ticket = enqueue(key, estimatedSize, start);
        ticket.ready(estimatedSize);
        return ticket;
    }

    private void admit(long estimatedSize) {
        if (waiting.size() >= maxQueued)
            throw overload(maxQueued + " requests already enqueued");
        Instant now = clock.instant();
        for (Ticket ticket : waiting)
            if (ticket.readyAt != null && Duration.between(ticket.readyAt, now).compareTo(maxAge) > 0)
                throw overload(String.format(Locale.ROOT, "%.1f seconds worth of work enqueued", maxAge.toMillis() / 1000.0));
        if ( ! waiting.isEmpty() && waitingBytes + estimatedSize > maxBytes)
            throw overload("estimated size of operation is " + estimatedSize + ", total size of queue "
                           + (waitingBytes + estimatedSize) + " would exceed queue limit of " + maxBytes);
    }

    private static HttpStatusException overload(String reason) {
        return new HttpStatusException(HttpStatus.TOO_MANY_REQUESTS_429, "Rejecting execution due to overload: " + reason);
    }

    /** Operations waiting to start. */
    public synchronized int queued() {
        return waiting.size();
    }

    /** Estimated bytes of the operations waiting to start. */
    public synchronized long queuedBytes() {
        return waitingBytes;
    }

    /** Operations started and not yet completed. */
    public synchronized int inFlight() {
        return inFlight;
    }

    /** Starts every waiting operation that may start now; one thread at a time, others leave it to that one. */
    private void dispatch() {
        synchronized (this) {
            if (dispatching) {
                dispatchAgain = true;
                return;
            }
            dispatching = true;
        }
        while (true) {
            List<Ticket> starting = new ArrayList<>();
            synchronized (this) {
                Set<String> heldBack = new HashSet<>();
                for (Iterator<Ticket> iterator = waiting.iterator(); iterator.hasNext() && inFlight < maxInFlight; ) {
                    Ticket ticket = iterator.next();
                    if (ticket.readyAt == null || runningKeys.contains(ticket.key) || ! heldBack.add(ticket.key)) {
                        heldBack.add(ticket.key);
                        continue;
                    }
                    iterator.remove();
                    waitingBytes -= ticket.size;
                    runningKeys.add(ticket.key);
                    inFlight++;
                    starting.add(ticket);
                }
                if (starting.isEmpty() && ! dispatchAgain) {
                    dispatching = false;
                    return;
                }
                dispatchAgain = false;
            }
            starting.forEach(Ticket::start);
        }
    }

    private void completed(Ticket ticket) {
        synchronized (this) {
            inFlight--;
            runningKeys.remove(ticket.key);
        }
        dispatch();
    }

    /** An admitted operation. */
    public final class Ticket {

        private final String key;
        private final Supplier<CompletableFuture<?>> start;
        private long size;          // guarded by the queue
        private Instant readyAt;    // guarded by the queue; null until ready
        private boolean cancelled;  // guarded by the queue

        private Ticket(String key, long size, Supplier<CompletableFuture<?>> start) {
            this.key = Objects.requireNonNull(key, "key");
            this.size = size;
            this.start = Objects.requireNonNull(start, "start");
        }

        /** Marks the operation ready to start, now holding {@code size} bytes, and dispatches. */
        public void ready(long size) {
            synchronized (OperationQueue.this) {
                if (cancelled || readyAt != null)
                    return;
                waitingBytes += size - this.size;
                this.size = size;
                readyAt = clock.instant();
            }
            dispatch();
        }

        /** Drops the operation if it is still waiting; returns whether it was. A started operation runs on. */
        public boolean cancel() {
            boolean removed;
            synchronized (OperationQueue.this) {
                cancelled = true;
                removed = waiting.remove(this);
                if (removed)
                    waitingBytes -= size;
            }
            if (removed)
                dispatch(); // it may have held back others with its key
            return removed;
        }

        private void start() {
            CompletableFuture<?> done;
            try {
                done = start.get();
            }
            catch (RuntimeException | Error e) {
                // A start must answer its own request; this is a bug (or an OutOfMemoryError), but must never leave
                // the slot taken: a stuck queue answers every later request 504.
                if ( ! FatalErrors.report(e))
                    log.error("Starting operation on '{}' failed", key, e);
                done = CompletableFuture.completedFuture(null);
            }
            done.whenComplete((result, failure) -> completed(this));
        }

    }

}
