package io.sluice.http.common;

import java.nio.ByteBuffer;

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
 */
public final class BodySlabs {

    public static final int SLAB_BYTES = 256 << 10;
    /** The largest body copied: one that fills at most 1/64 of the slab, the share Jetty copies. */
    public static final int MAX_COPIED_BYTES = SLAB_BYTES / 64 - 1;

    private static final ThreadLocal<ByteBuffer> slabs = new ThreadLocal<>();

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

}
