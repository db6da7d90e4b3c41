package io.sluice.container.document;

import io.sluice.container.HttpStatusException;
import org.eclipse.jetty.http.HttpStatus;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Decides whether {@code /document/v1} takes on one more operation (spec §7.1), from what the admitted ones cost: an
 * operation is <em>pending</em> from its admission until its backend call completes, and a new one is refused with 429
 * and Vespa's text when the oldest pending operation has waited longer than {@code maxAge}, when {@code maxOperations}
 * are pending, or when its body would take the pending bytes over {@code maxBytes} (a single operation may exceed it
 * when nothing else is pending).
 *
 * <p>It neither queues nor orders: an admitted operation goes to its backend at once, and backends apply operations
 * on one document in the order of the calls ({@code ContentBackend}). So the engines' own queues hold the waiting
 * work, and the age of the oldest pending operation says how far behind they are.
 *
 * <p>Lock-free: admission and release are a few atomic updates; pending operations whose backend call did not complete
 * as it returned are kept in the order they began to wait, which is their admission order within microseconds, so
 * that the oldest is found at the head, and released ones are dropped from the head as admissions pass by.
 */
public final class Admission {

    private static final VarHandle RELEASED;
    static {
        try {
            RELEASED = MethodHandles.lookup().findVarHandle(Permit.class, "released", boolean.class);
        }
        catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final int maxOperations;
    private final long maxBytes;
    private final long maxAgeMillis;
    private final String ageMessage;
    private final Clock clock;

    private final AtomicInteger operations = new AtomicInteger();
    private final AtomicLong bytes = new AtomicLong();
    private final ConcurrentLinkedQueue<Permit> byAge = new ConcurrentLinkedQueue<>();

    /**
     * @param maxOperations most operations pending at once
     * @param maxBytes      most body bytes of pending operations
     * @param maxAge        how long the oldest pending operation may have waited before new ones are refused (3 s)
     * @param clock         for ages
     */
    public Admission(int maxOperations, long maxBytes, Duration maxAge, Clock clock) {
        if (maxOperations < 1) throw new IllegalArgumentException("maxOperations must be positive, but was " + maxOperations);
        if (maxBytes < 1) throw new IllegalArgumentException("maxBytes must be positive, but was " + maxBytes);
        this.maxOperations = maxOperations;
        this.maxBytes = maxBytes;
        this.maxAgeMillis = Objects.requireNonNull(maxAge, "maxAge").toMillis();
        this.ageMessage = String.format(Locale.ROOT, "%.1f seconds worth of work enqueued", maxAgeMillis / 1000.0);
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * Admits an operation holding {@code size} body bytes; mark it {@link Permit#waiting} if its backend call did not
     * complete as it returned, and {@link Permit#release} it when that call completes.
     *
     * @throws HttpStatusException 429 with Vespa's text if too much work is pending
     */
    public Permit admit(long size) {
        return admit(size, clock.millis());
    }

    /**
     * {@link #admit(long)} at {@code now} (milliseconds), a reading of this admission's clock just taken: for a caller that
     * read the time anyway (a request's arrival, when it is admitted as it arrives).
     */
    public Permit admit(long size, long now) {
        checkAge(now);
        int pending = operations.incrementAndGet();
        if (pending > maxOperations) {
            operations.decrementAndGet();
            throw overload(maxOperations + " requests already enqueued");
        }
        long pendingBytes = size == 0 ? bytes.get() : bytes.addAndGet(size); // a read holds no body
        if (pending > 1 && pendingBytes > maxBytes) {
            operations.decrementAndGet();
            bytes.addAndGet(-size);
            throw overload("estimated size of operation is " + size + ", total size of queue " + pendingBytes
                           + " would exceed queue limit of " + maxBytes);
        }
        return new Permit(size, now);
    }

    /**
     * Checks, without admitting anything, that new work would be admitted now: for work that is bounded on its own,
     * like a visit, which should still not start while operations wait too long.
     *
     * @throws HttpStatusException 429 with Vespa's text if too much work is pending
     */
    public void check() {
        checkAge(clock.millis());
        if (operations.get() >= maxOperations)
            throw overload(maxOperations + " requests already enqueued");
    }

    private void checkAge(long now) {
        Permit oldest = oldest();
        if (oldest != null && now - oldest.admittedMillis > maxAgeMillis)
            throw overload(ageMessage);
    }

    /** The oldest permit not yet released, dropping released ones ahead of it. */
    private Permit oldest() {
        Permit head;
        while ((head = byAge.peek()) != null && head.released)
            byAge.remove(head); // at the head, so found at once; a racing remover makes this a no-op
        return head;
    }

    private static HttpStatusException overload(String reason) {
        return new HttpStatusException(HttpStatus.TOO_MANY_REQUESTS_429, "Rejecting execution due to overload: " + reason);
    }

    /** Operations admitted and not yet released. */
    public int pending() {
        return operations.get();
    }

    /** Body bytes of the operations admitted and not yet released. */
    public long pendingBytes() {
        return bytes.get();
    }

    /** How long the oldest pending operation has waited, in milliseconds; 0 if none is pending. */
    public long oldestAgeMillis() {
        Permit oldest = oldest();
        return oldest == null ? 0 : Math.max(0, clock.millis() - oldest.admittedMillis);
    }

    /** One admitted operation. */
    public final class Permit {

        private final long size;
        private final long admittedMillis;
        private volatile boolean released;

        private Permit(long size, long admittedMillis) {
            this.size = size;
            this.admittedMillis = admittedMillis;
        }

        /**
         * Counts this operation in the age of pending work ({@code maxAge}) from when it was admitted: for an
         * operation whose backend call did not complete when it returned. One that completes at once, as most reads
         * of a cache or of memory do, is over before anyone could see its age, so it never enters the age queue.
         */
        public void waiting() {
            if ( ! released)
                byAge.offer(this);
        }

        /** Ends the operation's claim on the limits; later calls do nothing. */
        public void release() {
            if ( ! RELEASED.compareAndSet(this, false, true))
                return;
            operations.decrementAndGet();
            if (size != 0)
                bytes.addAndGet(-size);
            if (byAge.peek() == this)
                byAge.remove(this);
        }

    }

}
