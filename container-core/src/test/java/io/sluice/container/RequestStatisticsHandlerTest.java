package io.sluice.container;

import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RequestStatisticsHandlerTest {

    private final RequestStatistics statistics = new RequestStatistics(new ManualClock(Instant.parse("2026-12-02T00:00:00Z")));

    @Test
    void injectedClock_countsFromEnteringTheHandler_toTheCallback() throws Exception {
        AtomicLong nanos = new AtomicLong(1_000);
        Handler answering = new Handler.Abstract.NonBlocking() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                nanos.addAndGet(5_000_000); // the request takes 5 ms on this clock
                response.setStatus(201);
                callback.succeeded();
                return true;
            }
        };
        try (LocalServer server = LocalServer.start(new RequestStatisticsHandler(statistics, nanos::get, answering))) {
            assertEquals(201, server.get("/").getStatus());
        }
        assertEquals(1, statistics.snapshot().count());
        assertEquals(5_000_000, statistics.snapshot().latencySumNanos());
        assertEquals(1, statistics.statusClassCount(2));
    }

    @Test
    void systemClock_countsFromJettysBeginTime() throws Exception {
        long hour = 3_600_000_000_000L;
        Handler answering = new Handler.Abstract.NonBlocking() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                response.setStatus(200);
                callback.succeeded();
                return true;
            }
        };
        // A request Jetty began an hour ago: its latency holds that hour, which entering the handler now would not.
        Handler begunAnHourAgo = new Handler.Wrapper(new RequestStatisticsHandler(statistics, answering)) {
            @Override
            public boolean handle(Request request, Response response, Callback callback) throws Exception {
                long begin = request.getBeginNanoTime() - hour;
                return super.handle(new Request.Wrapper(request) {
                    @Override
                    public long getBeginNanoTime() {
                        return begin;
                    }
                }, response, callback);
            }
        };
        try (LocalServer server = LocalServer.start(begunAnHourAgo)) {
            assertEquals(200, server.get("/").getStatus());
        }
        assertEquals(1, statistics.snapshot().count());
        assertTrue(statistics.snapshot().latencySumNanos() >= hour, "latency " + statistics.snapshot().latencySumNanos());
        assertEquals(1, statistics.statusClassCount(2));
    }

}
