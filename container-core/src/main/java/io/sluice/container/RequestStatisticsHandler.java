package io.sluice.container;

import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

import java.util.function.LongSupplier;
import java.util.function.ToLongFunction;

/**
 * Records each request's latency, from its arrival to its callback completing, in {@link RequestStatistics}: from
 * Jetty's {@link Request#getBeginNanoTime} (its headers parsed) on {@link System#nanoTime}, or from entering this
 * handler on another clock.
 */
public class RequestStatisticsHandler extends Handler.Wrapper {

    private final RequestStatistics statistics;
    private final LongSupplier nanoTime;
    private final ToLongFunction<Request> begin;

    /** Latencies on {@link System#nanoTime}, from Jetty's begin time. */
    public RequestStatisticsHandler(RequestStatistics statistics, Handler handler) {
        this(statistics, System::nanoTime, Request::getBeginNanoTime, handler);
    }

    /** Latencies on {@code nanoTime}, from entering this handler. */
    public RequestStatisticsHandler(RequestStatistics statistics, LongSupplier nanoTime, Handler handler) {
        this(statistics, nanoTime, request -> nanoTime.getAsLong(), handler);
    }

    private RequestStatisticsHandler(RequestStatistics statistics, LongSupplier nanoTime, ToLongFunction<Request> begin,
                                     Handler handler) {
        super(handler);
        this.statistics = statistics;
        this.nanoTime = nanoTime;
        this.begin = begin;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        long start = begin.applyAsLong(request);
        Callback recording = new Callback() {
            @Override public void succeeded() {
                statistics.record(nanoTime.getAsLong() - start, response.getStatus());
                callback.succeeded();
            }
            @Override public void failed(Throwable x) {
                // Jetty answers 500 to a failed callback unless the response is already under way.
                statistics.record(nanoTime.getAsLong() - start, response.isCommitted() ? response.getStatus() : 500);
                callback.failed(x);
            }
            @Override public InvocationType getInvocationType() { return callback.getInvocationType(); }
        };
        return super.handle(request, response, recording);
    }

}
