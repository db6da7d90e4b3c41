package io.sluice.container;

import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RequestTrackingHandlerTest {

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
        try (LocalServer server = LocalServer.start(new RequestTrackingHandler(statistics, nanos::get, answering))) {
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
        Handler begunAnHourAgo = new Handler.Wrapper(new RequestTrackingHandler(statistics, answering)) {
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

    /** Holds requests to {@code /held} until the test releases them; answers others at once. */
    static final class Holding extends Handler.Abstract.NonBlocking {
        final CountDownLatch arrived = new CountDownLatch(1);
        final CompletableFuture<Void> release = new CompletableFuture<>();

        @Override
        public boolean handle(Request request, Response response, Callback callback) {
            if (request.getHttpURI().getPath().equals("/held")) {
                arrived.countDown();
                release.thenRun(() -> {
                    response.setStatus(200);
                    callback.succeeded();
                });
            }
            else {
                response.setStatus(200);
                callback.succeeded();
            }
            return true;
        }
    }

    @Test
    void shutdown_refusesNewRequestsWith503_andCompletesWhenTheRunningOnesHaveEnded() throws Exception {
        Holding holding = new Holding();
        RequestTrackingHandler tracking = new RequestTrackingHandler(statistics, holding);
        try (LocalServer server = LocalServer.start(tracking)) {
            assertEquals(200, server.get("/now").getStatus());
            CompletableFuture<Integer> held = CompletableFuture.supplyAsync(() -> {
                try {
                    return server.get("/held").getStatus();
                }
                catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            assertTrue(holding.arrived.await(30, TimeUnit.SECONDS));

            CompletableFuture<Void> stopped = tracking.shutdown();
            assertTrue(tracking.isShutdown());
            assertFalse(stopped.isDone(), "a request still runs");
            assertEquals(503, server.get("/now").getStatus());
            assertFalse(stopped.isDone(), "a refused request does not end the running one");
            assertTrue(tracking.running() >= 1);

            holding.release.complete(null);
            assertEquals(200, held.get(30, TimeUnit.SECONDS));
            stopped.get(30, TimeUnit.SECONDS); // every request has ended, and been recorded
            assertEquals(0, tracking.running());
        }
        assertEquals(3, statistics.snapshot().count());
        assertEquals(2, statistics.statusClassCount(2));
        assertEquals(1, statistics.statusClassCount(5));
    }

    @Test
    void shutdown_withNothingRunning_completes_andLaterRequestsGet503() throws Exception {
        RequestTrackingHandler tracking = new RequestTrackingHandler(statistics, new Holding());
        try (LocalServer server = LocalServer.start(tracking)) {
            assertEquals(200, server.get("/now").getStatus());
            tracking.shutdown().get(30, TimeUnit.SECONDS); // the answered request ends just after its response
            assertTrue(tracking.shutdown().isDone(), "nothing runs");
            assertEquals(503, server.get("/now").getStatus());
        }
    }

    @Test
    void aHandlerThatThrows_getsA500_andItsRequestEnds() throws Exception {
        Handler throwing = new Handler.Abstract.NonBlocking() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                throw new IllegalStateException("a bug");
            }
        };
        RequestTrackingHandler tracking = new RequestTrackingHandler(statistics, throwing);
        try (LocalServer server = LocalServer.start(tracking)) {
            assertEquals(500, server.get("/").getStatus());
            tracking.shutdown().get(30, TimeUnit.SECONDS); // completes only once the request has ended
            assertEquals(0, tracking.running());
        }
        assertEquals(1, statistics.statusClassCount(5));
    }

    @Test
    void aRequestNoHandlerTakes_isA404_andEnds() throws Exception {
        Handler declining = new Handler.Abstract.NonBlocking() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                return false;
            }
        };
        RequestTrackingHandler tracking = new RequestTrackingHandler(statistics, declining);
        try (LocalServer server = LocalServer.start(tracking)) {
            assertEquals(404, server.get("/").getStatus());
            tracking.shutdown().get(30, TimeUnit.SECONDS); // completes only once the request has ended
            assertEquals(0, tracking.running());
        }
    }

}
