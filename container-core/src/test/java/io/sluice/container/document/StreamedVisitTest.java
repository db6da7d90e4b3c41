package io.sluice.container.document;

import io.sluice.container.JsonTree;
import org.eclipse.jetty.http.HttpTester;
import org.eclipse.jetty.server.LocalConnector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static io.sluice.container.document.VisitParametersTest.encode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Streamed visits ({@code stream=true}) in JSON and JSON lines, through the handler. */
class StreamedVisitTest {

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

    private static String contentType(HttpTester.Response response) {
        return response.get("Content-Type").toLowerCase(Locale.ROOT);
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> lines(HttpTester.Response response) {
        List<Map<String, Object>> lines = new ArrayList<>();
        for (String line : response.getContent().split("\n", -1)) {
            if ( ! line.isEmpty())
                lines.add((Map<String, Object>) JsonTree.parse(line));
        }
        assertTrue(response.getContent().endsWith("\n"));
        return lines;
    }

    @Test
    void json_streamsEveryDocumentInOneResponse() throws Exception {
        List<String> all = fixture.putMusic(300);
        HttpTester.Response response = fixture.get("/document/v1/?cluster=music&stream=true");
        assertEquals(200, response.getStatus());
        assertEquals("application/json; charset=utf-8", contentType(response));
        Map<String, Object> body = VisitFixture.json(response);
        assertEquals(Set.of("pathId", "documents", "documentCount"), body.keySet());
        List<String> ids = VisitTest.ids(List.of(body));
        assertEquals(all.size(), ids.size());
        assertEquals(Set.copyOf(all), Set.copyOf(ids));
    }

    @Test
    void jsonLines_oneObjectPerLineEndingWithAFinishedContinuation() throws Exception {
        fixture.put("id:ns:music::a", "{\"year\":1}");
        HttpTester.Response response = fixture.get("/document/v1/?cluster=music&stream=true", "Accept: application/jsonl");
        assertEquals("application/jsonl; charset=utf-8", contentType(response));
        assertEquals(List.of(Map.of("put", "id:ns:music::a", "fields", Map.of("year", 1L)),
                             Map.of("sessionStats", Map.of("documentCount", 1L)),
                             Map.of("continuation", Map.of("percentFinished", 100.0))),
                     lines(response));
    }

    @Test
    void jsonLines_manyDocumentsWithProgressLines() throws Exception {
        List<String> all = fixture.putMusic(300);
        List<Map<String, Object>> lines = lines(fixture.get("/document/v1/?cluster=music&stream=true", "Accept: application/jsonl"));
        List<String> ids = lines.stream().filter(line -> line.containsKey("put")).map(line -> (String) line.get("put")).toList();
        assertEquals(all.size(), ids.size());
        assertEquals(Set.copyOf(all), Set.copyOf(ids));
        assertTrue(lines.stream().anyMatch(line -> line.containsKey("continuation") && ((Map<?, ?>) line.get("continuation")).containsKey("token")));
        assertEquals(Map.of("continuation", Map.of("percentFinished", 100.0)), lines.get(lines.size() - 1));
    }

    @Test
    void jsonLinesWithTracelevel_endsWithSessionTraceBeforeTheContinuation() throws Exception {
        List<Map<String, Object>> lines = lines(fixture.get("/document/v1/?cluster=music&stream=true&tracelevel=1", "Accept: application/jsonl"));
        assertEquals(3, lines.size());
        assertEquals(Map.of("sessionStats", Map.of("documentCount", 0L)), lines.get(0));
        assertEquals(Set.of("trace"), ((Map<?, ?>) lines.get(1).get("sessionTrace")).keySet());
        assertEquals(Map.of("continuation", Map.of("percentFinished", 100.0)), lines.get(2));
    }

    @Test
    void acceptTieBetweenJsonAndJsonLines_prefersJsonLines() throws Exception {
        HttpTester.Response response = fixture.get("/document/v1/?cluster=music&stream=true", "Accept: application/json, application/jsonl");
        assertEquals("application/jsonl; charset=utf-8", contentType(response));
    }

    @Test
    void acceptPreferringJson_streamsJson() throws Exception {
        HttpTester.Response response = fixture.get("/document/v1/?cluster=music&stream=true", "Accept: application/jsonl;q=0.5, application/json");
        assertEquals("application/json; charset=utf-8", contentType(response));
    }

    @Test
    void jsonLinesWithoutStream_isPagedJson() throws Exception {
        HttpTester.Response response = fixture.get("/document/v1/?cluster=music", "Accept: application/jsonl");
        assertEquals("application/json; charset=utf-8", contentType(response));
    }

    @Test
    void wantedDocumentCount_endsTheStreamWithAContinuationThatResumes() throws Exception {
        List<String> all = fixture.putMusic(40);
        Map<String, Object> first = VisitFixture.json(fixture.get("/document/v1/?cluster=music&stream=true&wantedDocumentCount=5"));
        assertTrue((Long) first.get("documentCount") >= 5);
        List<Map<String, Object>> pages = new ArrayList<>(List.of(first));
        pages.addAll(VisitTest.pages(fixture, "/document/v1/?cluster=music&stream=true&continuation=" + encode((String) first.get("continuation"))));
        List<String> ids = VisitTest.ids(pages);
        assertEquals(all.size(), ids.size());
        assertEquals(Set.copyOf(all), Set.copyOf(ids));
    }

    @Test
    void budgetSpent_epilogueCarriesTheContinuation() throws Exception {
        fixture.putMusic(20);
        backend.hold = true;
        LocalConnector.LocalEndPoint endPoint = fixture.start("GET", "/document/v1/?cluster=music&stream=true&timeout=10s");
        backend.release(3);
        backend.awaitHeld();
        assertEquals(1, fixture.scheduler.fireShorterThan(TIMEOUT));
        HttpTester.Response response = HttpTester.parseResponse(endPoint.getResponse(false, 10, TimeUnit.SECONDS));
        assertEquals(200, response.getStatus());
        Map<String, Object> body = VisitFixture.json(response);
        assertEquals(3L, body.get("documentCount"));
        assertTrue(body.containsKey("continuation"));
        assertFalse(body.containsKey("message"));
        backend.cancels.get(0).get(10, TimeUnit.SECONDS);
    }

    @Test
    void backendSilentUntilTheDeadline_cutsTheStreamOffAndCancels() throws Exception {
        backend.hold = true;
        LocalConnector.LocalEndPoint endPoint = fixture.start("GET", "/document/v1/?cluster=music&stream=true&timeout=10s");
        backend.awaitHeld();
        assertEquals(1, fixture.scheduler.fireShorterThan(TIMEOUT)); // nothing to resume from: the stream waits on
        assertEquals(1, fixture.scheduler.fire(delay -> delay.equals(TIMEOUT)));
        backend.cancels.get(0).get(10, TimeUnit.SECONDS);
        String raw = endPoint.getResponse(false, 10, TimeUnit.SECONDS);
        assertFalse(raw != null && raw.endsWith("0\r\n\r\n"), "the chunked body must not end properly: " + raw);
    }

    @Test
    void backendFailure_epilogueCarriesMessageAndContinuation() throws Exception {
        fixture.putMusic(20);
        backend.hold = true;
        LocalConnector.LocalEndPoint endPoint = fixture.start("GET", "/document/v1/?cluster=music&stream=true", "Accept: application/jsonl");
        backend.release(3);
        backend.fail(new IllegalStateException("disk on fire"));
        List<Map<String, Object>> lines = lines(HttpTester.parseResponse(endPoint.getResponse(false, 10, TimeUnit.SECONDS)));
        assertEquals(Map.of("sessionStats", Map.of("documentCount", 3L)), lines.get(lines.size() - 3));
        assertEquals(Map.of("message", Map.of("text", "disk on fire", "severity", "error")), lines.get(lines.size() - 2));
        assertTrue(((Map<?, ?>) lines.get(lines.size() - 1).get("continuation")).containsKey("token"));
    }

    @Test
    void clientGone_cancelsTheVisit() throws Exception {
        fixture.putMusic(300);
        backend.hold = true;
        LocalConnector.LocalEndPoint endPoint = fixture.start("GET", "/document/v1/?cluster=music&stream=true");
        backend.awaitHeld();
        endPoint.close();
        backend.release();
        backend.cancels.get(0).get(10, TimeUnit.SECONDS);
    }

}
