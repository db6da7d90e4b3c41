package io.sluice.container.document;

import io.sluice.container.HttpStatusException;
import org.eclipse.jetty.http.HttpException;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.util.thread.Invocable;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Reads a JSON request body into memory with Jetty's non-blocking read/demand loop, bounded before anything is
 * buffered: by {@code maxSize} (the inflated size for {@code Content-Encoding: gzip}, which this reader inflates and
 * checks itself) and by a shared {@link MemoryBudget}, reserved before the buffer grows. The body must be valid UTF-8.
 * One instance per body.
 */
public final class BodyReader {

    private final Content.Source source;
    private final long maxSize;
    private final MemoryBudget memory;
    private final GzipInflation gzip;
    private final CompletableFuture<Body> result = new CompletableFuture<>();
    /**
     * What the body's source calls when more of it can be read. Over HTTP/2 it is declared non-blocking (it never
     * waits), so that Jetty runs it on the thread that read the frames, whose writes to the connection leave together
     * at the end of its round (FairEndPoint), instead of handing each request's body to a thread of its own: as a plain
     * Runnable it was one pool task and one socket write per POST (1 KiB puts, h2c 4x256: 17.5 µs of server CPU each;
     * so, 8.7). Over HTTP/1.1 it stays a plain Runnable, run on a pool thread: there the reading thread may be the
     * selector's, which must not parse a large document while the connections it serves wait.
     */
    private final Runnable readMore;
    private byte[] buffer;
    private int size = 0;
    private long reserved = 0;

    private BodyReader(Content.Source source, long maxSize, MemoryBudget memory, GzipInflation gzip,
                       int initialCapacity, boolean onReadingThread) {
        this.source = source;
        this.readMore = onReadingThread ? Invocable.from(Invocable.InvocationType.NON_BLOCKING, this::run)
                                        : this::run;
        this.maxSize = maxSize;
        this.memory = memory;
        this.gzip = gzip;
        this.buffer = new byte[0];
        grow(initialCapacity);
    }

    /** A body read into memory: {@code bytes[0, length)}, holding a reservation until {@link #release}d. */
    public static final class Body {

        private final byte[] bytes;
        private final int length;
        private final Runnable release;
        private final AtomicBoolean released = new AtomicBoolean();

        private Body(byte[] bytes, int length, Runnable release) {
            this.bytes = bytes;
            this.length = length;
            this.release = release;
        }

        /** The buffer; only the first {@link #length} bytes are the body. */
        public byte[] bytes() {
            return bytes;
        }

        public int length() {
            return length;
        }

        /** Returns the body's memory reservation; call once the body is no longer needed. Idempotent. */
        public void release() {
            if (released.compareAndSet(false, true))
                release.run();
        }

    }

    /**
     * Reads all of {@code request}'s body. The future completes with the body, or exceptionally with a
     * {@link HttpStatusException}: 413 with spec §7.1's text when the body exceeds {@code maxSize}, 413 when it can never
     * fit in {@code memory}, 429 when other bodies hold too much of {@code memory} now, 400 for gzip that does not
     * inflate cleanly or a body that is not UTF-8, 415 for another content encoding, and 400 (or the failure's own
     * status) when reading fails. Reading stops at the first problem.
     */
    public static CompletableFuture<Body> read(Request request, long maxSize, MemoryBudget memory) {
        long limit = Math.min(maxSize, memory.capacity());
        String encoding = request.getHeaders().get(HttpHeader.CONTENT_ENCODING);
        GzipInflation gzip = null;
        if (encoding != null && ! encoding.isBlank() && ! encoding.trim().equalsIgnoreCase("identity")) {
            if ( ! encoding.trim().equalsIgnoreCase("gzip"))
                return CompletableFuture.failedFuture(new HttpStatusException(HttpStatus.UNSUPPORTED_MEDIA_TYPE_415,
                                                                              "Unsupported Content-Encoding '" + encoding
                                                                              + "': only gzip is supported"));
            gzip = new GzipInflation();
        }
        long declared = request.getLength();
        if (gzip == null && declared > maxSize)
            return CompletableFuture.failedFuture(tooLarge(declared, maxSize));
        if (gzip == null && declared > memory.capacity())
            return CompletableFuture.failedFuture(tooLargeForMemory(declared, memory));
        int initial = gzip == null && declared >= 0 ? (int) declared : (int) Math.min(limit, 16 * 1024);
        BodyReader reader;
        try {
            boolean http2 = request.getConnectionMetaData().getHttpVersion() == HttpVersion.HTTP_2;
            reader = new BodyReader(request, maxSize, memory, gzip, initial, http2);
        }
        catch (HttpStatusException e) {
            return CompletableFuture.failedFuture(e);
        }
        reader.run();
        return reader.result;
    }

    static HttpStatusException tooLarge(long size, long limit) {
        return new HttpStatusException(HttpStatus.PAYLOAD_TOO_LARGE_413,
                                       "Document operation request size " + size + " bytes exceeds maximum size of "
                                       + limit + " bytes. See https://docs.vespa.ai/en/writing/document-v1-api-guide.html#request-size-limit");
    }

    private static HttpStatusException tooLargeForMemory(long size, MemoryBudget memory) {
        return new HttpStatusException(HttpStatus.PAYLOAD_TOO_LARGE_413,
                                       "Document operation request size " + size + " bytes exceeds the " + memory.capacity()
                                       + " bytes this server can hold for request bodies (1/" + MemoryBudget.HEAP_FRACTION
                                       + " of its heap); give it a larger heap to accept this document");
    }

    private void run() {
        try {
            while (true) {
                Content.Chunk chunk = source.read();
                if (chunk == null) {
                    source.demand(readMore);
                    return;
                }
                if (Content.Chunk.isFailure(chunk)) {
                    Throwable failure = chunk.getFailure();
                    if ( ! chunk.isLast())
                        source.fail(failure); // a transient failure (e.g. an idle timeout): give up on the body
                    fail(readFailure(failure));
                    return;
                }
                boolean last = chunk.isLast();
                try {
                    ByteBuffer bytes = chunk.getByteBuffer();
                    if (gzip != null)
                        gzip.feed(bytes, this::append);
                    else
                        append(bytes);
                }
                finally {
                    chunk.release();
                }
                if (last) {
                    if (gzip != null)
                        gzip.finish();
                    checkUtf8(buffer, size);
                    result.complete(new Body(buffer, size, this::releaseAll));
                    return;
                }
            }
        }
        catch (HttpStatusException e) {
            fail(e);
        }
    }

    private void fail(HttpStatusException e) {
        if (gzip != null)
            gzip.abandon();
        buffer = null;
        releaseAll();
        result.completeExceptionally(e);
    }

    private void releaseAll() {
        long held;
        synchronized (this) {
            held = reserved;
            reserved = 0;
        }
        memory.release(held);
    }

    private void append(ByteBuffer bytes) {
        int remaining = bytes.remaining();
        ensureRoom(remaining);
        bytes.get(buffer, size, remaining);
        size += remaining;
    }

    private void append(byte[] bytes, int offset, int length) {
        ensureRoom(length);
        System.arraycopy(bytes, offset, buffer, size, length);
        size += length;
    }

    private void ensureRoom(int more) {
        long needed = (long) size + more;
        if (needed <= buffer.length)
            return;
        if (needed > maxSize)
            throw tooLarge(needed, maxSize);
        if (needed > memory.capacity())
            throw tooLargeForMemory(needed, memory);
        grow((int) Math.min(Math.min(maxSize, memory.capacity()), Math.max(needed, 2L * buffer.length)));
    }

    /** Reserves, then allocates, a buffer of {@code capacity} bytes. */
    private void grow(int capacity) {
        long more = capacity - buffer.length;
        if ( ! memory.tryReserve(more))
            throw new HttpStatusException(HttpStatus.TOO_MANY_REQUESTS_429,
                                          "Rejecting execution due to overload: request bodies in memory would exceed "
                                          + memory.capacity() + " bytes");
        synchronized (this) {
            reserved += more;
        }
        buffer = Arrays.copyOf(buffer, capacity);
    }

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long HIGH_BITS = 0x8080808080808080L;

    /**
     * The length of the ASCII run {@code bytes} start with, at most {@code length}: eight bytes per step (a byte at a
     * time, the scan was ~2% of the server's CPU for 1 KiB puts).
     */
    static int asciiPrefix(byte[] bytes, int length) {
        int i = 0;
        for (; i + Long.BYTES <= length; i += Long.BYTES)
            if (((long) LONGS.get(bytes, i) & HIGH_BITS) != 0)
                break;
        while (i < length && bytes[i] >= 0)
            i++;
        return i;
    }

    /** Throws 400 unless {@code bytes[0, length)} is well-formed UTF-8 (no overlong forms, surrogates or code points past U+10FFFF). */
    static void checkUtf8(byte[] bytes, int length) {
        if (asciiPrefix(bytes, length) == length)
            return; // plain ASCII, like most feeds: nothing to decode
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                                                       .onMalformedInput(CodingErrorAction.REPORT)
                                                       .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes, 0, length);
        CharBuffer out = CharBuffer.allocate(8192);
        while (true) {
            CoderResult coded = decoder.decode(in, out, true);
            if (coded.isError())
                throw new HttpStatusException(HttpStatus.BAD_REQUEST_400,
                                              String.format(Locale.ROOT, "Request body is not valid UTF-8: invalid byte 0x%02x at offset %d",
                                                            bytes[in.position()] & 0xff, in.position()));
            if (coded.isUnderflow())
                break;
            out.clear();
        }
        out.clear();
        CoderResult flushed = decoder.flush(out);
        if (flushed.isError())
            throw new HttpStatusException(HttpStatus.BAD_REQUEST_400, "Request body is not valid UTF-8 at its end");
    }

    static HttpStatusException readFailure(Throwable failure) {
        if (failure instanceof HttpException) {
            int status = ((HttpException) failure).getCode();
            if (status >= 400 && status <= 599)
                return new HttpStatusException(status, "Failed reading request body: " + failure.getMessage());
        }
        if (failure instanceof TimeoutException)
            return new HttpStatusException(HttpStatus.REQUEST_TIMEOUT_408, "Request body did not arrive in time: "
                                                                          + failure.getMessage());
        return new HttpStatusException(HttpStatus.BAD_REQUEST_400, "Failed reading request body: "
                                                                   + (failure.getMessage() == null ? "connection failed" : failure.getMessage()));
    }

}
