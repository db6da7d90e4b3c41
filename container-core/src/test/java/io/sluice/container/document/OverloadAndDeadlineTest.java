package io.sluice.container.document;

import io.sluice.config.DocumentApiConfig;
import io.sluice.container.JsonTree;
import io.sluice.content.Outcome;
import org.eclipse.jetty.http.HttpTester;
import org.eclipse.jetty.server.LocalConnector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Admission limits, deadlines and per-id ordering, with a backend whose answers the test controls. */
class OverloadAndDeadlineTest {

    private static final String DOC = "/document/v1/ns/music/docid/one";

    private final HeldBackend backend = new HeldBackend();
    private HandlerFixture fixture;

    @AfterEach
    void stop() {
        if (fixture != null)
            fixture.close();
    }

    private HandlerFixture start(int maxPending) throws Exception {
        var config = new DocumentApiConfig(DocumentApiConfig.MIB, Duration.ofSeconds(180), false, maxPending, 100 * DocumentApiConfig.MIB);
        return fixture = HandlerFixture.create(backend, config);
    }

    private static HttpTester.Response response(LocalConnector.LocalEndPoint endpoint) throws Exception {
        return HttpTester.parseResponse(endpoint.getResponse());
    }

    /** A remove whose backend answers {@code outcome} gets {@code status} with the id and {@code message}. */
    /**
     * Waits until {@code expected} requests wait for the backend with their deadlines watched and their age counted:
     * the handler's thread marks them just after the backend call returns, which may be after the test saw the call.
     */
    private void awaitWatched(int expected) throws InterruptedException {
        for (int i = 0; i < 10_000 && fixture.handler.openRequests() != expected; i++)
            Thread.sleep(1);
        assertEquals(expected, fixture.handler.openRequests());
    }

    private void assertRemoveAnswers(Outcome outcome, int status, String message) throws Exception {
        start(256);
        LocalConnector.LocalEndPoint request = fixture.start("DELETE", DOC, null);
        backend.next().result().complete(outcome);
        HttpTester.Response response = response(request);
        assertEquals(status, response.getStatus());
        assertEquals(Map.of("pathId", DOC, "id", "id:ns:music::one", "message", message), JsonTree.parse(response.getContent()));
    }

    @Test
    void backendSlowerThanTimeout_returns504() throws Exception {
        start(256);
        LocalConnector.LocalEndPoint request = fixture.start("GET", DOC + "?timeout=1500ms", null);
        backend.next();
        awaitWatched(1);
        fixture.clock.advance(Duration.ofMillis(1499));
        fixture.scheduler.sweepDeadlines();
        assertEquals(1, fixture.handler.openRequests()); // still unanswered one millisecond before its deadline
        fixture.clock.advance(Duration.ofMillis(1));
        fixture.scheduler.sweepDeadlines();
        HttpTester.Response response = response(request);
        assertEquals(504, response.getStatus());
        assertEquals(Map.of("pathId", DOC, "message", "Timeout after 1500ms"), JsonTree.parse(response.getContent()));
    }

    @Test
    void backendDeadline_is100msBeforeRequestDeadline() throws Exception {
        start(256);
        Instant created = fixture.clock.instant();
        LocalConnector.LocalEndPoint request = fixture.start("DELETE", DOC + "?timeout=2s", null);
        HeldBackend.Call call = backend.next();
        assertEquals(created.plusMillis(1900), call.options().deadline());
        call.result().complete(Outcome.missing());
        assertEquals(200, response(request).getStatus());
    }

    @Test
    void defaultTimeout_is180Seconds() throws Exception {
        start(256);
        LocalConnector.LocalEndPoint request = fixture.start("DELETE", DOC, null);
        backend.next().result().complete(Outcome.missing());
        response(request);
        LocalConnector.LocalEndPoint held = fixture.start("DELETE", DOC, null);
        backend.next();
        awaitWatched(1);
        fixture.clock.advance(Duration.ofSeconds(180).minusMillis(1));
        fixture.scheduler.sweepDeadlines();
        assertEquals(1, fixture.handler.openRequests()); // unanswered one millisecond before 180 s
        fixture.clock.advance(Duration.ofMillis(1));
        fixture.scheduler.sweepDeadlines();
        assertEquals(504, response(held).getStatus());
        assertEquals(0, fixture.handler.openRequests());
    }

    @Test
    void backendTimeoutOutcome_returns504WithId() throws Exception {
        assertRemoveAnswers(Outcome.timeout("too late"), 504, "too late");
    }

    @Test
    void backendOverload_returns429WithId() throws Exception {
        assertRemoveAnswers(Outcome.overload("busy"), 429, "busy");
    }

    @Test
    void backendUnavailable_returns503WithIdAndCause() throws Exception {
        assertRemoveAnswers(Outcome.unavailable("Cassandra is unavailable: 1 of 2 replicas alive"), 503,
                            "Cassandra is unavailable: 1 of 2 replicas alive");
        assertEquals(1, fixture.handler.metrics().operations("remove", "unavailable"));
    }

    @Test
    void backendInsufficientStorage_returns507() throws Exception {
        assertRemoveAnswers(Outcome.insufficientStorage("full"), 507, "full");
    }

    @Test
    void backendError_returns500() throws Exception {
        assertRemoveAnswers(Outcome.error("broken"), 500, "broken");
    }

    @Test
    void tooManyPending_returns429WithVespaMessage_untilTheBackendAnswers() throws Exception {
        start(2);
        LocalConnector.LocalEndPoint a = fixture.start("DELETE", "/document/v1/ns/music/docid/a", null);
        HeldBackend.Call first = backend.next();
        fixture.start("DELETE", "/document/v1/ns/music/docid/b", null);
        backend.next(); // both reached the backend at once: nothing waits in the handler
        HttpTester.Response response = fixture.send("DELETE", "/document/v1/ns/music/docid/c");
        assertEquals(429, response.getStatus());
        assertEquals(Map.of("pathId", "/document/v1/ns/music/docid/c",
                            "message", "Rejecting execution due to overload: 2 requests already enqueued"),
                     JsonTree.parse(response.getContent()));
        assertEquals(0, backend.waiting()); // the refused one never reached the backend
        first.result().complete(Outcome.missing());
        assertEquals(200, response(a).getStatus());
        LocalConnector.LocalEndPoint d = fixture.start("DELETE", "/document/v1/ns/music/docid/d", null);
        backend.next().result().complete(Outcome.missing());
        assertEquals(200, response(d).getStatus());
    }

    @Test
    void oldestPendingTooOld_returns429WithVespaMessage() throws Exception {
        start(10);
        fixture.start("DELETE", "/document/v1/ns/music/docid/a", null);
        HeldBackend.Call slow = backend.next();
        awaitWatched(1); // counted in the age of pending work
        fixture.clock.advance(Duration.ofMillis(3001));
        HttpTester.Response response = fixture.send("DELETE", "/document/v1/ns/music/docid/c");
        assertEquals(429, response.getStatus());
        assertEquals("Rejecting execution due to overload: 3.0 seconds worth of work enqueued",
                     JsonTree.object(response.getContent()).get("message"));
        slow.result().complete(Outcome.missing());
        LocalConnector.LocalEndPoint later = fixture.start("DELETE", "/document/v1/ns/music/docid/d", null);
        backend.next().result().complete(Outcome.missing());
        assertEquals(200, response(later).getStatus());
    }

    @Test
    void timedOutRequest_staysPendingUntilTheBackendAnswers() throws Exception {
        start(1);
        LocalConnector.LocalEndPoint request = fixture.start("DELETE", "/document/v1/ns/music/docid/a?timeout=1s", null);
        HeldBackend.Call call = backend.next();
        awaitWatched(1);
        fixture.clock.advance(Duration.ofSeconds(1));
        fixture.scheduler.sweepDeadlines();
        assertEquals(504, response(request).getStatus());
        assertEquals(1, fixture.handler.context().admission().pending()); // the backend still works on it
        assertEquals(429, fixture.send("DELETE", "/document/v1/ns/music/docid/b").getStatus());
        call.result().complete(Outcome.missing());
        HeldBackend.awaitPending(fixture.handler.context().admission(), 0);
    }

    @Test
    void sameIdOperations_reachBackendAtOnceInArrivalOrder() throws Exception {
        start(10);
        LocalConnector.LocalEndPoint first = fixture.start("POST", DOC, "{\"fields\":{\"year\":1}}");
        HeldBackend.Call put = backend.next();
        LocalConnector.LocalEndPoint second = fixture.start("DELETE", DOC, null);
        HeldBackend.Call remove = backend.next(); // backends apply operations on one id in call order
        assertEquals(List.of("put", "remove"), List.of(put.operation(), remove.operation()));
        remove.result().complete(Outcome.written(2, true));
        put.result().complete(Outcome.written(1, false));
        List<Integer> statuses = new ArrayList<>();
        for (LocalConnector.LocalEndPoint endpoint : List.of(first, second))
            statuses.add(response(endpoint).getStatus());
        assertEquals(List.of(200, 200), statuses);
    }

    @Test
    void metrics_countOperationsByOutcome() throws Exception {
        start(10);
        LocalConnector.LocalEndPoint request = fixture.start("DELETE", DOC, null);
        backend.next().result().complete(Outcome.conditionFailed("no"));
        assertEquals(412, response(request).getStatus());
        assertEquals(1, fixture.handler.metrics().operations("remove", "condition_not_met"));
    }


}
