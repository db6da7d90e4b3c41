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

/** Queue limits, deadlines, cancellation and per-id ordering, with a backend whose answers the test controls. */
class OverloadAndDeadlineTest {

    private static final String DOC = "/document/v1/ns/music/docid/one";

    private final HeldBackend backend = new HeldBackend();
    private HandlerFixture fixture;

    @AfterEach
    void stop() {
        if (fixture != null)
            fixture.close();
    }

    private HandlerFixture start(int maxQueued, int maxInFlight) throws Exception {
        var config = new DocumentApiConfig(DocumentApiConfig.MIB, Duration.ofSeconds(180), false, maxQueued, 100 * DocumentApiConfig.MIB);
        return fixture = HandlerFixture.create(backend, config, maxInFlight);
    }

    private static HttpTester.Response response(LocalConnector.LocalEndPoint endpoint) throws Exception {
        return HttpTester.parseResponse(endpoint.getResponse());
    }

    /** A remove whose backend answers {@code outcome} gets {@code status} with the id and {@code message}. */
    private void assertRemoveAnswers(Outcome outcome, int status, String message) throws Exception {
        start(256, 10);
        LocalConnector.LocalEndPoint request = fixture.start("DELETE", DOC, null);
        backend.next().result().complete(outcome);
        HttpTester.Response response = response(request);
        assertEquals(status, response.getStatus());
        assertEquals(Map.of("pathId", DOC, "id", "id:ns:music::one", "message", message), JsonTree.parse(response.getContent()));
    }

    @Test
    void backendSlowerThanTimeout_returns504() throws Exception {
        start(256, 10);
        LocalConnector.LocalEndPoint request = fixture.start("GET", DOC + "?timeout=1500ms", null);
        backend.next();
        assertEquals(List.of(Duration.ofMillis(1500)), fixture.scheduler.pendingDelays());
        fixture.scheduler.fireAll();
        HttpTester.Response response = response(request);
        assertEquals(504, response.getStatus());
        assertEquals(Map.of("pathId", DOC, "message", "Timeout after 1500ms"), JsonTree.parse(response.getContent()));
    }

    @Test
    void backendDeadline_is100msBeforeRequestDeadline() throws Exception {
        start(256, 10);
        Instant created = fixture.clock.instant();
        LocalConnector.LocalEndPoint request = fixture.start("DELETE", DOC + "?timeout=2s", null);
        HeldBackend.Call call = backend.next();
        assertEquals(created.plusMillis(1900), call.options().deadline());
        call.result().complete(Outcome.missing());
        assertEquals(200, response(request).getStatus());
    }

    @Test
    void defaultTimeout_is180Seconds() throws Exception {
        start(256, 10);
        LocalConnector.LocalEndPoint request = fixture.start("DELETE", DOC, null);
        backend.next().result().complete(Outcome.missing());
        response(request);
        assertEquals(List.of(), fixture.scheduler.pendingDelays()); // answered: the deadline task was cancelled
        fixture.start("DELETE", DOC, null);
        backend.next();
        assertEquals(List.of(Duration.ofSeconds(180)), fixture.scheduler.pendingDelays());
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
    void queueFull_returns429WithVespaMessage() throws Exception {
        start(2, 1);
        fixture.start("DELETE", "/document/v1/ns/music/docid/a", null);
        backend.next(); // in flight; the next two wait in the queue
        fixture.start("DELETE", "/document/v1/ns/music/docid/b", null);
        fixture.start("DELETE", "/document/v1/ns/music/docid/c", null);
        awaitQueued(2);
        HttpTester.Response response = fixture.send("DELETE", "/document/v1/ns/music/docid/d");
        assertEquals(429, response.getStatus());
        assertEquals(Map.of("pathId", "/document/v1/ns/music/docid/d",
                            "message", "Rejecting execution due to overload: 2 requests already enqueued"),
                     JsonTree.parse(response.getContent()));
    }

    @Test
    void queueTooOld_returns429WithVespaMessage() throws Exception {
        start(10, 1);
        fixture.start("DELETE", "/document/v1/ns/music/docid/a", null);
        backend.next();
        fixture.start("DELETE", "/document/v1/ns/music/docid/b", null);
        awaitQueued(1);
        fixture.clock.advance(Duration.ofMillis(3001));
        HttpTester.Response response = fixture.send("DELETE", "/document/v1/ns/music/docid/c");
        assertEquals(429, response.getStatus());
        assertEquals("Rejecting execution due to overload: 3.0 seconds worth of work enqueued",
                     JsonTree.object(response.getContent()).get("message"));
    }

    @Test
    void timedOutQueuedRequest_isRemovedFromQueue() throws Exception {
        start(10, 1);
        fixture.start("DELETE", "/document/v1/ns/music/docid/a?timeout=100s", null);
        backend.next();
        LocalConnector.LocalEndPoint queued = fixture.start("DELETE", "/document/v1/ns/music/docid/b?timeout=1s", null);
        awaitQueued(1);
        fixture.scheduler.fireAll();
        assertEquals(504, response(queued).getStatus());
        assertEquals(0, fixture.handler.context().queue().queued());
    }

    @Test
    void sameIdOperations_reachBackendInArrivalOrderOneAtATime() throws Exception {
        start(10, 10);
        LocalConnector.LocalEndPoint first = fixture.start("POST", DOC, "{\"fields\":{\"year\":1}}");
        HeldBackend.Call put = backend.next();
        LocalConnector.LocalEndPoint second = fixture.start("DELETE", DOC, null);
        LocalConnector.LocalEndPoint other = fixture.start("DELETE", "/document/v1/ns/music/docid/other", null);
        HeldBackend.Call otherCall = backend.next();
        assertEquals("id:ns:music::other", otherCall.id().toString()); // other ids pass the waiting one
        assertEquals(0, backend.waiting()); // the remove of the same id waits for the put
        put.result().complete(Outcome.written(1, false));
        HeldBackend.Call remove = backend.next();
        assertEquals(List.of("put", "remove"), List.of(put.operation(), remove.operation()));
        remove.result().complete(Outcome.written(2, true));
        otherCall.result().complete(Outcome.missing());
        List<Integer> statuses = new ArrayList<>();
        for (LocalConnector.LocalEndPoint endpoint : List.of(first, second, other))
            statuses.add(response(endpoint).getStatus());
        assertEquals(List.of(200, 200, 200), statuses);
    }

    @Test
    void metrics_countOperationsByOutcome() throws Exception {
        start(10, 10);
        LocalConnector.LocalEndPoint request = fixture.start("DELETE", DOC, null);
        backend.next().result().complete(Outcome.conditionFailed("no"));
        assertEquals(412, response(request).getStatus());
        assertEquals(1, fixture.handler.metrics().operations("remove", "condition_not_met"));
    }

    private void awaitQueued(int count) throws InterruptedException {
        for (int i = 0; i < 1000 && fixture.handler.context().queue().queued() != count; i++)
            Thread.sleep(10); // polls for another thread's progress; no timing is asserted
        assertEquals(count, fixture.handler.context().queue().queued());
    }

}
