package io.sluice.container.document;

/**
 * The bytes of request bodies held in memory at once, across all requests of a handler. A body reserves its buffer
 * before growing it and releases it when its request is answered, so concurrent large bodies get 429 instead of
 * exhausting the heap. Parsing a body takes several times its size again (the bytes, then the parser's characters, then
 * the field values), so the default capacity is a small fraction of the heap. Thread-safe.
 */
public final class BodyMemory {

    /** The share of the maximum heap that bodies may hold by default: 1/8. */
    public static final int HEAP_FRACTION = 8;

    private final long capacity;
    private long reserved = 0;

    private BodyMemory(long capacity) {
        if (capacity < 1)
            throw new IllegalArgumentException("capacity must be positive, but was " + capacity);
        this.capacity = capacity;
    }

    /** Room for {@code capacity} bytes of bodies. */
    public static BodyMemory of(long capacity) {
        return new BodyMemory(capacity);
    }

    /** Room for 1/{@value #HEAP_FRACTION} of this JVM's maximum heap. */
    public static BodyMemory ofHeap() {
        return of(Math.max(1, Runtime.getRuntime().maxMemory() / HEAP_FRACTION));
    }

    /** The most bytes all bodies together may hold; a single body larger than this can never be read. */
    public long capacity() {
        return capacity;
    }

    /** Bytes now reserved. */
    public synchronized long reserved() {
        return reserved;
    }

    /** Reserves {@code bytes} if they fit; returns whether they did. */
    public synchronized boolean tryReserve(long bytes) {
        if (bytes < 0)
            throw new IllegalArgumentException("bytes must not be negative, but was " + bytes);
        if (reserved + bytes > capacity)
            return false;
        reserved += bytes;
        return true;
    }

    /** Returns {@code bytes} reserved earlier. */
    public synchronized void release(long bytes) {
        if (bytes < 0 || bytes > reserved)
            throw new IllegalArgumentException("cannot release " + bytes + " bytes of " + reserved + " reserved");
        reserved -= bytes;
    }

}
