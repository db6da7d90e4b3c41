package io.sluice.container;

import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.component.Graceful;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import java.util.function.ToLongFunction;

/**
 * The server's outermost handler: follows each request from its arrival to its callback completing, with one callback
 * of its own, for two things.
 * <ul>
 *   <li>Graceful stop ({@link Graceful}): once {@link #shutdown} is called, new requests are answered 503, and the
 *       returned future completes when no request that was let in is still running (Jetty's stop waits for it, up to
 *       the server's stop timeout).</li>
 *   <li>{@link RequestStatistics}: each request's latency, from Jetty's {@link Request#getBeginNanoTime} (its headers
 *       parsed) on {@link System#nanoTime}, or from entering this handler on another clock, and its status.</li>
 * </ul>
 * Running requests are counted in a {@link LongAdder}, which spreads the two threads' writes over cells of their own.
 * Jetty's {@code GracefulHandler}, which this replaces, counted them in one {@code AtomicLong} that both cores wrote twice
 * per request, and wrapped the request and the callback besides; a statistics wrapper inside it took another callback.
 * Without those the server answered 1–2% more GETs for 1–2% less CPU each (two pairs of paired runs of h2c 4×256 GETs,
 * each both ways round, 8515d77 against 747b7a2, 2026-12-02).
 */
public class RequestTrackingHandler extends Handler.Wrapper implements Graceful {

    private final RequestStatistics statistics;
    private final LongSupplier nanoTime;
    private final ToLongFunction<Request> begin;
    private final LongAdder running = new LongAdder();
    private final Graceful.Shutdown shutdown = new Graceful.Shutdown(this) {
        @Override
        public boolean isShutdownDone() {
            return running.sum() == 0;
        }
    };

    /** Latencies on {@link System#nanoTime}, from Jetty's begin time. */
    public RequestTrackingHandler(RequestStatistics statistics, Handler handler) {
        this(statistics, System::nanoTime, Request::getBeginNanoTime, handler);
    }

    /** Latencies on {@code nanoTime}, from entering this handler. */
    public RequestTrackingHandler(RequestStatistics statistics, LongSupplier nanoTime, Handler handler) {
        this(statistics, nanoTime, request -> nanoTime.getAsLong(), handler);
    }

    private RequestTrackingHandler(RequestStatistics statistics, LongSupplier nanoTime, ToLongFunction<Request> begin,
                                   Handler handler) {
        super(handler);
        this.statistics = Objects.requireNonNull(statistics, "statistics");
        this.nanoTime = nanoTime;
        this.begin = begin;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        Handler next = getHandler();
        if (next == null || ! isStarted())
            return false;
        // Counted before the shutdown flag is read, as shutdown sets the flag before it reads the count: one of the two
        // sees the other, so no request is let in that the stop does not wait for.
        running.increment();
        Tracked tracked = new Tracked(response, callback, begin.applyAsLong(request));
        if (shutdown.isShutdown()) {
            Response.writeError(request, response, tracked, HttpStatus.SERVICE_UNAVAILABLE_503);
            return true;
        }
        boolean handled;
        try {
            handled = next.handle(request, response, tracked);
        }
        catch (Throwable failure) {
            Response.writeError(request, response, tracked, failure);
            return true;
        }
        if ( ! handled)
            ended(); // Jetty answers 404 through its own callback: this one is never completed
        return handled;
    }

    /** Requests let in whose callbacks have not completed yet. */
    public long running() {
        return running.sum();
    }

    /** Refuses new requests from now on; the future completes when no request is running. */
    @Override
    public CompletableFuture<Void> shutdown() {
        return shutdown.shutdown();
    }

    @Override
    public boolean isShutdown() {
        return shutdown.isShutdown();
    }

    @Override
    protected void doStart() throws Exception {
        shutdown.cancel(); // a restarted server takes requests again
        super.doStart();
    }

    private void ended() {
        running.decrement();
        if (shutdown.isShutdown())
            shutdown.check();
    }

    /**
     * The request's callback, recording the request and ending it once the original callback has completed; a second
     * completion (a handler that completed its callback and then threw) does nothing, as it must not end the request
     * twice, which would let a stop complete while another request still runs. The once-flag is a field set through a
     * {@link VarHandle}: no object more per request.
     */
    private final class Tracked implements Callback {

        private volatile boolean completed;
        private final Response response;
        private final Callback callback;
        private final long start;

        Tracked(Response response, Callback callback, long start) {
            this.response = response;
            this.callback = callback;
            this.start = start;
        }

        @Override
        public void succeeded() {
            if ( ! COMPLETED.compareAndSet(this, false, true))
                return;
            statistics.record(nanoTime.getAsLong() - start, response.getStatus());
            try {
                callback.succeeded();
            }
            finally {
                ended();
            }
        }

        @Override
        public void failed(Throwable failure) {
            if ( ! COMPLETED.compareAndSet(this, false, true))
                return;
            // Jetty answers 500 to a failed callback unless the response is already under way.
            statistics.record(nanoTime.getAsLong() - start, response.isCommitted() ? response.getStatus() : 500);
            try {
                callback.failed(failure);
            }
            finally {
                ended();
            }
        }

        @Override
        public InvocationType getInvocationType() {
            return callback.getInvocationType();
        }

    }

    private static final VarHandle COMPLETED;
    static {
        try {
            COMPLETED = MethodHandles.lookup().findVarHandle(Tracked.class, "completed", boolean.class);
        }
        catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

}
