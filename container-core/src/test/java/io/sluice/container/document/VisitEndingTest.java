package io.sluice.container.document;

import io.sluice.content.ContentUnavailableException;
import io.sluice.content.Outcome;
import org.eclipse.jetty.http.HttpTester;
import org.eclipse.jetty.server.LocalConnector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.sluice.container.document.VisitParametersTest.encode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** How a non-streamed visit page ends when time runs out, the backend fails, or the request's deadline passes. */
class VisitEndingTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private ControlledBackend backend;
    private VisitFixture fixture;

    @BeforeEach
    void start() throws Exception {
        fixture = VisitFixture.oneCluster(real -> backend = new ControlledBackend(real));
    }

    @AfterEach
    void stop() {
        fixture.close();
    }

    private static HttpTester.Response response(LocalConnector.LocalEndPoint endPoint) throws Exception {
        return HttpTester.parseResponse(endPoint.getResponse(false, 10, TimeUnit.SECONDS));
    }

    @Test
    void budgetSpentBeforeAnyBatch_returns504WithoutContinuation() throws Exception {
        backend.hold = true;
        LocalConnector.LocalEndPoint endPoint = fixture.start("GET", "/document/v1/?cluster=music&timeout=10s");
        backend.awaitHeld();
        assertEquals(1, fixture.scheduler.fireShorterThan(TIMEOUT));
        HttpTester.Response response = response(endPoint);
        assertEquals(504, response.getStatus());
        assertEquals(Map.of("pathId", "/document/v1/", "documents", List.of(), "documentCount", 0L,
                            "message", "No buckets visited within timeout of 8900ms (request timeout -5s)"),
                     VisitFixture.json(response));
        backend.cancels.get(0).get(10, TimeUnit.SECONDS);
    }

    @Test
    void budgetSpentAfterABatch_returnsWhatWasReadWithAContinuationThatResumesExactly() throws Exception {
        List<String> all = fixture.putMusic(20);
        backend.hold = true;
        LocalConnector.LocalEndPoint endPoint = fixture.start("GET", "/document/v1/?cluster=music&wantedDocumentCount=10&timeout=10s");
        backend.release(3);
        backend.awaitHeld(); // the page wants more, so it reads on
        fixture.scheduler.fireShorterThan(TIMEOUT);
        HttpTester.Response response = response(endPoint);
        assertEquals(200, response.getStatus());
        Map<String, Object> first = VisitFixture.json(response);
        assertEquals(3L, first.get("documentCount"));
        backend.hold = false;
        assertResumesExactly(first, all);
    }

    @Test
    void backendFailure_returns500WithDocumentsSoFarAndNoContinuation() throws Exception {
        fixture.putMusic(20);
        backend.hold = true;
        LocalConnector.LocalEndPoint endPoint = fixture.start("GET", "/document/v1/?cluster=music&wantedDocumentCount=10");
        backend.release(3);
        backend.fail(new IllegalStateException("disk on fire"));
        HttpTester.Response response = response(endPoint);
        assertEquals(500, response.getStatus());
        Map<String, Object> page = VisitFixture.json(response);
        assertEquals(3L, page.get("documentCount"));
        assertEquals(3, ((List<?>) page.get("documents")).size());
        assertEquals("disk on fire", page.get("message"));
        assertFalse(page.containsKey("continuation"));
    }

    @Test
    void contentUnavailableBeforeAnyBatch_returns503WithMessage() throws Exception {
        fixture.putMusic(20);
        backend.hold = true;
        LocalConnector.LocalEndPoint endPoint = fixture.start("GET", "/document/v1/?cluster=music&wantedDocumentCount=10");
        backend.fail(new ContentUnavailableException("Cassandra is unavailable for a visit", null));
        HttpTester.Response response = response(endPoint);
        assertEquals(503, response.getStatus());
        assertEquals(Map.of("pathId", "/document/v1/", "documents", List.of(), "documentCount", 0L,
                            "message", "Cassandra is unavailable for a visit"),
                     VisitFixture.json(response));
    }

    @Test
    void contentUnavailableAfterABatch_returns200WithAContinuationThatResumesExactly() throws Exception {
        List<String> all = fixture.putMusic(20);
        backend.hold = true;
        LocalConnector.LocalEndPoint endPoint = fixture.start("GET", "/document/v1/?cluster=music&wantedDocumentCount=10");
        backend.release(3);
        backend.fail(new ContentUnavailableException("Cassandra is unavailable for a visit", null));
        HttpTester.Response response = response(endPoint);
        assertEquals(200, response.getStatus());
        Map<String, Object> first = VisitFixture.json(response);
        assertEquals(3L, first.get("documentCount"));
        assertFalse(first.containsKey("message"));
        backend.hold = false;
        assertResumesExactly(first, all);
    }

    @Test
    void admissionFull_refusesTheVisitWith429() throws Exception {
        fixture.close();
        fixture = VisitFixture.oneSlot(real -> backend = new ControlledBackend(real));
        backend.writeGate = new CompletableFuture<>();
        LocalConnector.LocalEndPoint put = fixture.start("DELETE", "/document/v1/ns/music/docid/a"); // holds the one slot
        backend.firstWrite.get(10, TimeUnit.SECONDS);
        HttpTester.Response refused = fixture.get("/document/v1/?cluster=music");
        assertEquals(429, refused.getStatus());
        assertEquals(Map.of("pathId", "/document/v1/", "message", "Rejecting execution due to overload: 1 requests already enqueued"),
                     VisitFixture.json(refused));
        backend.writeGate.complete(Outcome.missing());
        assertEquals(200, response(put).getStatus());
        assertEquals(200, fixture.get("/document/v1/?cluster=music").getStatus());
    }

    @Test
    void requestDeadline_answers504AndCancelsTheVisit() throws Exception {
        backend.hold = true;
        LocalConnector.LocalEndPoint endPoint = fixture.start("GET", "/document/v1/?cluster=music&timeout=10s");
        backend.awaitHeld();
        fixture.clock.advance(TIMEOUT);
        assertEquals(1, fixture.scheduler.sweepDeadlines());
        HttpTester.Response response = response(endPoint);
        assertEquals(504, response.getStatus());
        assertEquals(Map.of("pathId", "/document/v1/", "message", "Timeout after 10000ms"), VisitFixture.json(response));
        backend.cancels.get(0).get(10, TimeUnit.SECONDS);
    }

    /** Page {@code first} and the pages visited on from its continuation hold exactly the documents {@code all}. */
    private void assertResumesExactly(Map<String, Object> first, List<String> all) throws Exception {
        List<Map<String, Object>> pages = new ArrayList<>(List.of(first));
        pages.addAll(VisitTest.pages(fixture, "/document/v1/?cluster=music&wantedDocumentCount=100&continuation="
                                              + encode((String) first.get("continuation"))));
        List<String> ids = VisitTest.ids(pages);
        assertEquals(all.size(), ids.size());
        assertEquals(Set.copyOf(all), Set.copyOf(ids));
    }

}
