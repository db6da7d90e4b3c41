package io.sluice.http.common;

import java.nio.ByteBuffer;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Message bodies (the feed client's requests, the server's responses) as views of large per-thread slabs, which Jetty's
 * HTTP/2 flusher copies into its write buffers instead of listing them one by one.
 *
 * <p>The flusher generates every frame queued on a session into one accumulator before it writes them.
 * A DATA frame's buffer that fills more than 1/64 of its capacity goes into the accumulator's list as it is, and with
 * it the next frame's header gets a new buffer, so the list grows by two for each message; and the accumulator finds
 * its size, which every later header and HPACK byte written checks, by walking that whole list. With a session's 128
 * streams queued at once that walk cost the feed client 4–13% of its CPU (async-profiler, 1M puts of 1 KiB); on the
 * server, whose responses to a connection's round of reads leave in one write, it took 39% of the CPU of 1 KiB GETs.
 * A body that fills at most 1/64 of its buffer's capacity is copied instead, next to the frame headers: so each body
 * is copied into a slab of {@value #SLAB_BYTES} bytes first, and the accumulator's list holds a few large buffers.
 * Larger bodies are wrapped as they are: few of them fill a write.
 *
 * <p>A slab is only ever appended to, and a new one taken when the rest of it is too small, so a frame still queued
 * (stalled by flow control, or waiting for a write) keeps its bytes; a slab goes to the garbage collector with its
 * last frame. Each thread that sends bodies holds at most one slab.
 *
 * <p>A body {@linkplain #lease leased} instead is written into a slab that is used again once every body in it has
 * been {@linkplain Lease#release released}, which a server does when its write's callback completes: a new slab is
 * allocated outside the thread's allocation buffer and zeroed whole, which took 0.25–0.30 µs of each 1 KiB GET's CPU,
 * most of it the zeroing (async-profiler, h2c 4×256), and a slab used again is still in the cache. At most {@value #FREE_SLABS} slabs wait
 * for reuse; a body never released only keeps its slab from being used again, for the garbage collector to take.
 */
public final class BodySlabs {

    public static final int SLAB_BYTES = 256 << 10;
    /** The largest body copied: one that fills at most 1/64 of the slab, the share Jetty copies. */
    public static final int MAX_COPIED_BYTES = SLAB_BYTES / 64 - 1;
    /** The most released slabs kept for reuse. */
    static final int FREE_SLABS = 32;

    private static final ThreadLocal<ByteBuffer> slabs = new ThreadLocal<>();
    private static final ThreadLocal<Slab> leasing = new ThreadLocal<>();
    private static final ArrayBlockingQueue<Slab> free = new ArrayBlockingQueue<>(FREE_SLABS);

    private BodySlabs() { }

    /** {@code body} as a buffer to send in a DATA frame: a copy in this thread's slab if it is small enough. */
    public static ByteBuffer of(byte[] body) {
        if (body.length > MAX_COPIED_BYTES) return ByteBuffer.wrap(body);
        ByteBuffer view = allocate(body.length);
        System.arraycopy(body, 0, view.array(), view.position(), body.length);
        return view;
    }

    /**
     * {@code body} as a buffer to send in a DATA frame: as it is if it is a view of a larger array (a slab, or a body
     * too large to copy), else its bytes copied into this thread's slab. Does not move {@code body}'s position.
     */
    public static ByteBuffer of(ByteBuffer body) {
        if ( ! body.hasArray() || body.capacity() > MAX_COPIED_BYTES) return body;
        ByteBuffer view = allocate(body.remaining());
        System.arraycopy(body.array(), body.arrayOffset() + body.position(), view.array(), view.position(),
                         body.remaining());
        return view;
    }

    /**
     * A buffer of {@code length} bytes to write a body into, from {@code array()[position()]} on (its array offset is
     * 0): a view of this thread's slab if {@code length} is small enough to copy, else a buffer of its own. Its bytes
     * start as zeros; the body is sent as the buffer stands.
     */
    public static ByteBuffer allocate(int length) {
        if (length > MAX_COPIED_BYTES) return ByteBuffer.allocate(length);
        ByteBuffer slab = slabs.get();
        if (slab == null || slab.remaining() < length) slabs.set(slab = ByteBuffer.allocate(SLAB_BYTES));
        int offset = slab.position();
        slab.position(offset + length);
        return ByteBuffer.wrap(slab.array(), offset, length); // the slab's capacity, so Jetty copies it
    }

    /**
     * A buffer of {@code length} bytes to write a body into, from {@code array()[position()]} on (its array offset is
     * 0), as {@link #allocate} gives, but in a slab that is used again once every body leased from it is released:
     * its bytes are those of earlier bodies, so the caller must write all {@code length} of them before it sends the
     * buffer. Release the lease once the buffer is no longer read: when the write's callback has completed, or at
     * once if the body is not sent.
     */
    public static Lease lease(int length) {
        if (length > MAX_COPIED_BYTES) return new Lease(ByteBuffer.allocate(length), null);
        Slab slab = leasing.get();
        if (slab == null || SLAB_BYTES - slab.position < length) {
            if (slab != null) slab.release(); // the thread's own hold: the slab is free once its bodies are released
            slab = free.poll();
            if (slab == null) slab = new Slab();
            else slab.reuse();
            leasing.set(slab);
        }
        slab.holds.incrementAndGet();
        int offset = slab.position;
        slab.position = offset + length;
        return new Lease(ByteBuffer.wrap(slab.array, offset, length), slab); // the slab's capacity, so Jetty copies it
    }

    /** Released slabs waiting to be used again, for tests. */
    static int freeSlabs() {
        return free.size();
    }

    /** A body's buffer from {@link #lease}, to release once when it is no longer read. Not thread-safe. */
    public static final class Lease {

        private final ByteBuffer buffer;
        private final Slab slab; // null for a body of its own
        private boolean released = false;

        private Lease(ByteBuffer buffer, Slab slab) {
            this.buffer = buffer;
            this.slab = slab;
        }

        /** The body's buffer: write its bytes from {@code array()[position()]} to the limit, then send it. */
        public ByteBuffer buffer() {
            return buffer;
        }

        /** Gives the body's bytes back to its slab; later calls do nothing. The buffer must no longer be read. */
        public void release() {
            if (released) return;
            released = true;
            if (slab != null) slab.release();
        }

        /** Whether {@link #release} was called. */
        public boolean isReleased() {
            return released;
        }

    }

    /**
     * A slab bodies are leased from: its owner thread appends to it, holding it once itself; whoever releases its last
     * hold puts it on the free list, where the thread that takes it next resets it.
     */
    private static final class Slab {

        final byte[] array = new byte[SLAB_BYTES];
        final AtomicInteger holds = new AtomicInteger(1);
        int position; // of the owner thread only

        void reuse() {
            position = 0;
            holds.set(1);
        }

        void release() {
            if (holds.decrementAndGet() == 0) free.offer(this); // a full free list leaves it to the garbage collector
        }

    }

}
