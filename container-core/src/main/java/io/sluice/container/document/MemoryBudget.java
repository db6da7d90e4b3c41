package io.sluice.container.document;

import java.util.ArrayList;
import java.util.List;

/**
 * Bytes of the heap that one kind of request work may hold at once, across all requests of a handler: request bodies
 * (reserved before a body's buffer grows, so concurrent large bodies get 429 instead of exhausting the heap), or
 * visits (reserved before a batch is read, held until what it rendered is written). Parsing or rendering takes
 * several times the bytes involved, so each budget is a small fraction of the heap. Thread-safe.
 *
 * <p>A visit must be able to pass a document larger than its budget, or it could never finish: {@link #reserveOrWait}
 * grants a reservation larger than the capacity when its caller is the only holder, so at most one such reservation
 * is held at a time.
 */
public final class MemoryBudget {

    /** The share of the maximum heap that one budget holds by default: 1/8. */
    public static final int HEAP_FRACTION = 8;

    private final long capacity;
    private long reserved = 0;                           // guarded by this
    private List<Runnable> waiters = new ArrayList<>();  // guarded by this

    private MemoryBudget(long capacity) {
        if (capacity < 1)
            throw new IllegalArgumentException("capacity must be positive, but was " + capacity);
        this.capacity = capacity;
    }

    /** Room for {@code capacity} bytes. */
    public static MemoryBudget of(long capacity) {
        return new MemoryBudget(capacity);
    }

    /** Room for 1/{@value #HEAP_FRACTION} of this JVM's maximum heap. */
    public static MemoryBudget ofHeap() {
        return of(Math.max(1, Runtime.getRuntime().maxMemory() / HEAP_FRACTION));
    }

    /** The most bytes {@link #tryReserve} lets all holders hold together. */
    public long capacity() {
        return capacity;
    }

    /** Bytes now reserved. */
    public synchronized long reserved() {
        return reserved;
    }

    /** Reserves {@code bytes} if they fit; returns whether they did. */
    public synchronized boolean tryReserve(long bytes) {
        requireNotNegative(bytes);
        if (reserved + bytes > capacity)
            return false;
        reserved += bytes;
        return true;
    }

    /**
     * Reserves {@code bytes} if they fit, or if the caller, which holds {@code held} bytes already, is the only holder
     * (a reservation larger than the capacity is granted alone); else runs {@code whenReleased} once, on the releasing
     * thread, after some bytes are next released, so the caller can try again. Returns whether the bytes were reserved.
     */
    public boolean reserveOrWait(long bytes, long held, Runnable whenReleased) {
        requireNotNegative(bytes);
        synchronized (this) {
            if (reserved + bytes <= capacity || reserved == held) {
                reserved += bytes;
                return true;
            }
            waiters.add(whenReleased);
            return false;
        }
    }

    /** Counts {@code bytes} that are already held as reserved, whether they fit or not. */
    public synchronized void force(long bytes) {
        requireNotNegative(bytes);
        reserved += bytes;
    }

    /** Returns {@code bytes} reserved earlier, and lets everyone waiting try again. */
    public void release(long bytes) {
        if (bytes == 0)
            return;
        List<Runnable> waiting;
        synchronized (this) {
            if (bytes < 0 || bytes > reserved)
                throw new IllegalArgumentException("cannot release " + bytes + " bytes of " + reserved + " reserved");
            reserved -= bytes;
            if (waiters.isEmpty())
                return;
            waiting = waiters;
            waiters = new ArrayList<>();
        }
        waiting.forEach(Runnable::run);
    }

    private static void requireNotNegative(long bytes) {
        if (bytes < 0)
            throw new IllegalArgumentException("bytes must not be negative, but was " + bytes);
    }

}
