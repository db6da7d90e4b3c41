package io.sluice.container;

import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

import java.util.function.LongSupplier;

/** Records each request's latency, from entering this handler to its callback completing, in {@link RequestStatistics}. */
public class RequestStatisticsHandler extends Handler.Wrapper {

    private final RequestStatistics statistics;
    private final LongSupplier nanoTime;

    public RequestStatisticsHandler(RequestStatistics statistics, LongSupplier nanoTime, Handler handler) {
        super(handler);
        this.statistics = statistics;
        this.nanoTime = nanoTime;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        long start = nanoTime.getAsLong();
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
