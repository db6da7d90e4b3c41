package io.sluice.container.document;

import io.sluice.http.common.BodySlabs;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.http.PreEncodedHttpField;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntConsumer;

/**
 * One request/response pair whose response is sent exactly once, whoever gets there first: the operation's outcome,
 * the deadline timer, or a failure. Everything that ends a request goes through {@link #respond} or
 * {@link #takeOver}; both return {@code false} to a latecomer, which must then do nothing. Thread-safe.
 *
 * <p>A response sent before the request body was read (a dry run, an unknown document type, a bad parameter) does
 * not end the exchange until the rest of the body has arrived and been discarded, up to {@link #DRAIN_LIMIT} bytes
 * (not after a 413: there the body is what was refused).
 * Ending it earlier makes Jetty reset the HTTP/2 stream with {@code CANCEL} (RFC 9113 §8.1 asks for a drained body or
 * {@code NO_ERROR}), which clients count as a transport failure and retry, and closes an HTTP/1.1 connection. A body
 * being read ({@link #readingBody}) when the response is sent is waited for the same way.
 */
public final class Exchange {

    /** The content type of every JSON response. */
    public static final String JSON = "application/json; charset=UTF-8";
    private static final HttpField CONTENT_TYPE = new PreEncodedHttpField(HttpHeader.CONTENT_TYPE, JSON);

    private final Request request;
    private final Response response;
    private final Callback callback;
    private final Observer observer;
    private final long start; // the observer's: when the request arrived
    private final Object lock = new Object(); // guards the fields below; held only to read or change them
    private volatile boolean done = false;    // the response is decided; set once, under the lock
    private IntConsumer firstListener;        // of whenDone, until the response is decided: mostly one, or none
    private List<IntConsumer> moreListeners;
    private List<Runnable> completionHooks;  // of whenCompleted, until the callback completes: for streamed visits
    private boolean callbackCompleted = false;
    private boolean bodyReading = false;  // a reader of the body has started
    private boolean bodyEnded = false;    // that reader has ended
    private boolean responseSent = false; // the response is written and waits for the body
    private volatile WriteWatch writes = WriteWatch.NONE;

    /** Most request body bytes discarded after an early response; a larger body's stream is reset instead. */
    static final long DRAIN_LIMIT = 64L << 20;

    /**
     * What an exchange tells its owner, on the thread that does it: for the {@code /document/v1} handler's metrics,
     * without a listener registered per request. One observer serves every exchange.
     */
    public interface Observer {

        /** Nothing to observe. */
        Observer NONE = new Observer() {
            @Override public void decided(int status, long start) { }
            @Override public void sent(long bodyBytes) { }
        };

        /**
         * The response was decided with {@code status}: called once, before the {@link #whenDone} listeners, with the
         * {@code start} the exchange was created with.
         */
        void decided(int status, long start);

        /** {@link #respond} sends a body of {@code bodyBytes} bytes. */
        void sent(long bodyBytes);

    }

    public Exchange(Request request, Response response, Callback callback) {
        this(request, response, callback, Observer.NONE, 0);
    }

    /**
     * An exchange that tells {@code observer} its status when decided, with {@code start} (e.g. when the request
     * arrived), and the size of the body it sends.
     */
    public Exchange(Request request, Response response, Callback callback, Observer observer, long start) {
        this.request = request;
        this.response = response;
        this.callback = new Callback.Nested(callback) {
            // Completed once: an exchange ended from outside (abort) sees its write fail later, and that must not
            // complete Jetty's callback a second time.
            private final AtomicBoolean completing = new AtomicBoolean();

            @Override
            public void succeeded() {
                if (completing.compareAndSet(false, true))
                    super.succeeded();
            }

            @Override
            public void failed(Throwable failure) {
                if (completing.compareAndSet(false, true))
                    super.failed(failure);
            }

            @Override
            public void completed() {
                List<Runnable> hooks;
                synchronized (lock) {
                    callbackCompleted = true;
                    hooks = completionHooks;
                    completionHooks = null;
                }
                if (hooks != null)
                    hooks.forEach(Runnable::run);
            }
        };
        this.observer = Objects.requireNonNull(observer, "observer");
        this.start = start;
    }

    public Request request() {
        return request;
    }

    /**
     * Registers {@code listener} to run with the status when the response is decided (by {@link #respond} or
     * {@link #takeOver}); runs it at once if already decided.
     */
    public void whenDone(IntConsumer listener) {
        synchronized (lock) {
            if ( ! done) {
                if (firstListener == null)
                    firstListener = listener;
                else
                    (moreListeners == null ? moreListeners = new ArrayList<>(2) : moreListeners).add(listener);
                return;
            }
        }
        listener.accept(response.getStatus());
    }

    /**
     * Registers {@code hook} to run when the request's callback completes (the response fully sent, or failed), which
     * for a streamed response is long after it was decided; runs it at once if already completed.
     */
    public void whenCompleted(Runnable hook) {
        synchronized (lock) {
            if ( ! callbackCompleted) {
                (completionHooks == null ? completionHooks = new ArrayList<>(2) : completionHooks).add(hook);
                return;
            }
        }
        hook.run();
    }

    /** Has {@code watch} told when this exchange's response writes start and end (for a visit's slot). */
    void watchWrites(WriteWatch watch) {
        this.writes = Objects.requireNonNull(watch, "watch");
    }

    /** What is told when this exchange's response writes start and end; {@link WriteWatch#NONE} if nothing is. */
    WriteWatch writeWatch() {
        return writes;
    }

    /**
     * Ends the exchange with {@code cause}, whatever it is doing (a response being written waits for a client that
     * does not read): Jetty resets the HTTP/2 stream or closes the HTTP/1.1 connection, which fails a write still
     * pending. The request's callback completes now; its later completions do nothing.
     */
    void abort(Throwable cause) {
        takeOver(HttpStatus.INTERNAL_SERVER_ERROR_500); // if nothing was decided yet, nothing else will answer now
        callback.failed(cause);
    }

    /** Whether the response has been decided. */
    public boolean isDone() {
        return done;
    }

    /**
     * Sends a whole JSON response, unless one was already decided.
     *
     * @return whether this call sent the response
     */
    public boolean respond(int status, byte[] body, Map<String, String> headers) {
        return respond(status, ByteBuffer.wrap(body), headers);
    }

    /**
     * Sends a whole JSON response, unless one was already decided: {@code body} from its position to its limit, as it
     * is if it is a view of a larger array (see {@link BodySlabs#of(ByteBuffer)}), so it must not change after this,
     * and the write may consume it.
     *
     * @return whether this call sent the response
     */
    public boolean respond(int status, ByteBuffer body, Map<String, String> headers) {
        return respond(status, body, null, headers);
    }

    /**
     * {@link #respond(int, ByteBuffer, Map)} for a body that is {@code lease}'s buffer, or has no lease if that is
     * null: the lease is released once Jetty no longer reads the body (the write's callback completed), or at once if
     * another response was decided first.
     *
     * @return whether this call sent the response
     */
    public boolean respond(int status, ByteBuffer body, BodySlabs.Lease lease, Map<String, String> headers) {
        if ( ! claim(status)) {
            if (lease != null)
                lease.release();
            return false;
        }
        response.setStatus(status);
        headers.forEach((name, value) -> response.getHeaders().put(name, value));
        Callback written = new Written(lease, writes);
        int length = body.remaining();
        if (length == 0) {
            response.write(true, null, written);
            return true;
        }
        response.getHeaders().put(CONTENT_TYPE);
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, length);
        observer.sent(length);
        response.write(true, BodySlabs.of(body), written); // copied by Jetty: see BodySlabs
        return true;
    }

    /**
     * The callback of a response's write: releases its body's lease, then ends the exchange or fails it. Its
     * invocation type is {@code Callback}'s default, BLOCKING, as {@code Callback.from} gives: Jetty's HTTP/2 flusher
     * asks every frame's callback for it, and asking the request's callback walks Jetty's nested callbacks and takes
     * the channel's lock (0.7 µs per GET, async-profiler, h2c 4 × 256 streams).
     */
    private final class Written implements Callback {

        private final BodySlabs.Lease lease; // or null
        private final WriteWatch watch;

        Written(BodySlabs.Lease lease, WriteWatch watch) {
            this.lease = lease;
            this.watch = watch;
            watch.writing();
        }

        @Override
        public void succeeded() {
            watch.written();
            if (lease != null)
                lease.release();
            responseWritten();
        }

        @Override
        public void failed(Throwable failure) {
            watch.written();
            if (lease != null)
                lease.release();
            callback.failed(failure);
        }

    }

    /**
     * Tells this exchange that {@code reading} reads the request body: a response sent before it ends waits for it,
     * instead of discarding the body itself. Returns {@code reading}.
     */
    public <T> CompletableFuture<T> readingBody(CompletableFuture<T> reading) {
        synchronized (lock) {
            bodyReading = true;
        }
        reading.whenComplete((value, failure) -> bodyEnded());
        return reading;
    }

    private void bodyEnded() {
        synchronized (lock) {
            bodyEnded = true;
            if ( ! responseSent)
                return;
        }
        callback.succeeded();
    }

    private void responseWritten() {
        synchronized (lock) {
            if (bodyReading && ! bodyEnded) {
                responseSent = true; // the reader's end completes the exchange
                return;
            }
            bodyReading = true; // nobody else reads it now: discard what is left
            bodyEnded = true;
        }
        if (request.getLength() > DRAIN_LIMIT || response.getStatus() == HttpStatus.PAYLOAD_TOO_LARGE_413)
            callback.succeeded(); // not worth the wait, or the body is what was refused: Jetty resets the stream
        else
            drain(DRAIN_LIMIT);
    }

    /** Reads and discards the rest of the request body, then completes the callback. */
    private void drain(long allowance) {
        long left = allowance;
        while (true) {
            Content.Chunk chunk = request.read();
            if (chunk == null) {
                long remaining = left;
                request.demand(() -> drain(remaining));
                return;
            }
            boolean end = chunk.isLast() || Content.Chunk.isFailure(chunk);
            left -= chunk.remaining();
            chunk.release();
            if (end || left < 0) {
                callback.succeeded();
                return;
            }
        }
    }

    /** {@link #respond(int, byte[], Map)} without extra headers. */
    public boolean respond(int status, byte[] body) {
        return respond(status, body, Map.of());
    }

    /** {@link #respond(int, ByteBuffer, Map)} without extra headers. */
    public boolean respond(int status, ByteBuffer body) {
        return respond(status, body, Map.of());
    }

    /**
     * Claims the response for a caller that writes it itself, e.g. a streamed visit. On {@code true} the caller owns
     * {@link #response()} and {@link #callback()}, must set {@code status} and complete the callback exactly once;
     * the deadline timer will no longer answer.
     */
    public boolean takeOver(int status) {
        if ( ! claim(status))
            return false;
        response.setStatus(status);
        return true;
    }

    /** The response; write to it only after a successful {@link #takeOver}. */
    public Response response() {
        return response;
    }

    /** The request's callback; complete it only after a successful {@link #takeOver}. */
    public Callback callback() {
        return callback;
    }

    private boolean claim(int status) {
        IntConsumer first;
        List<IntConsumer> more;
        synchronized (lock) {
            if (done)
                return false;
            done = true;
            first = firstListener;
            more = moreListeners;
            firstListener = null;
            moreListeners = null;
        }
        observer.decided(status, start);
        if (first != null)
            first.accept(status);
        if (more != null)
            more.forEach(listener -> listener.accept(status));
        return true;
    }

}
