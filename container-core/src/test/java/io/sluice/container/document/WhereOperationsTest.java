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
import java.util.concurrent.TimeUnit;

import static io.sluice.container.document.VisitParametersTest.encode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Update-where, delete-where and copy through the handler, paged by continuation. */
class WhereOperationsTest {

    private ControlledBackend backend;
    private VisitFixture fixture;

    @BeforeEach
    void start() throws Exception {
        fixture = VisitFixture.create();
    }

    @AfterEach
    void stop() {
        fixture.close();
    }

    /** Repeats the request with each continuation until there is none; returns every page. */
    private List<Map<String, Object>> pages(String method, String pathAndQuery, String body) throws Exception {
        List<Map<String, Object>> pages = new ArrayList<>();
        String continuation = null;
        do {
            HttpTester.Response response = fixture.send(method, pathAndQuery + (continuation == null ? "" : "&continuation=" + encode(continuation)), body);
            assertEquals(200, response.getStatus(), response.getContent());
            Map<String, Object> page = VisitFixture.json(response);
            pages.add(page);
            continuation = (String) page.get("continuation");
        } while (continuation != null && pages.size() < 1000);
        return pages;
    }

    private static long documentCount(List<Map<String, Object>> pages) {
        return pages.stream().mapToLong(page -> (Long) page.get("documentCount")).sum();
    }

    private boolean exists(String id) {
        return fixture.get(fixture.music, id).isPresent();
    }

    @Test
    void deleteWhere_removesExactlyTheSelectedDocuments() throws Exception {
        fixture.putMusic(10);
        List<Map<String, Object>> pages = pages("DELETE", "/document/v1/ns/music/docid/?cluster=music&selection=" + encode("music.year < 2005"), null);
        assertEquals(Map.of("pathId", "/document/v1/ns/music/docid/", "documentCount", 5L), pages.get(pages.size() - 1));
        assertEquals(5, documentCount(pages));
        for (int i = 0; i < 10; i++)
            assertEquals(i >= 5, exists("id:ns:music::" + i), "document " + i);
    }

    @Test
    void deleteWhereEverySlice_removesEverything() throws Exception {
        fixture.putMusic(30);
        for (int sliceId = 0; sliceId < 3; sliceId++)
            pages("DELETE", "/document/v1/ns/music/docid/?cluster=music&selection=true&slices=3&sliceId=" + sliceId, null);
        for (int i = 0; i < 30; i++)
            assertFalse(exists("id:ns:music::" + i));
    }

    @Test
    void updateWhere_appliesTheBodyToTheSelectedDocuments() throws Exception {
        fixture.putMusic(10);
        List<Map<String, Object>> pages = pages("PUT", "/document/v1/ns/music/docid/?cluster=music&selection=" + encode("music.year >= 2008"),
                                                "{\"fields\":{\"title\":{\"assign\":\"Renamed\"}}}");
        assertEquals(2, documentCount(pages));
        for (int i = 0; i < 10; i++)
            assertEquals(i >= 8 ? "Renamed" : "Title " + i,
                         fixture.get(fixture.music, "id:ns:music::" + i).orElseThrow().value("title").orElseThrow().toString());
    }

    @Test
    void updateWhereWithUnknownField_returns400() throws Exception {
        HttpTester.Response response = fixture.send("PUT", "/document/v1/ns/music/docid/?cluster=music&selection=true",
                                                    "{\"fields\":{\"nope\":{\"assign\":1}}}");
        assertEquals(400, response.getStatus());
        assertTrue(((String) VisitFixture.json(response).get("message")).contains("nope"));
    }

    @Test
    void updateWhereWithUnknownFieldWhenLenient_updatesAndSaysFieldsWereIgnored() throws Exception {
        fixture.close();
        fixture = VisitFixture.lenient();
        fixture.putMusic(2);
        HttpTester.Response response = fixture.send("PUT", "/document/v1/ns/music/docid/?cluster=music&selection=true",
                                                    "{\"fields\":{\"nope\":{\"assign\":1},\"year\":{\"assign\":1}}}");
        assertEquals(200, response.getStatus());
        assertEquals("true", response.get("X-Vespa-Ignored-Fields"));
        assertEquals(Map.of("pathId", "/document/v1/ns/music/docid/", "documentCount", 2L), VisitFixture.json(response));
        assertEquals("1", fixture.get(fixture.music, "id:ns:music::1").orElseThrow().value("year").orElseThrow().toString());
    }

    @Test
    void updateWhereWithoutBody_returns400() throws Exception {
        HttpTester.Response response = fixture.send("PUT", "/document/v1/ns/music/docid/?cluster=music&selection=true", null);
        assertEquals(400, response.getStatus());
    }

    @Test
    void copy_putsTheSelectedDocumentsIntoTheDestination() throws Exception {
        fixture.putMusic(5);
        List<Map<String, Object>> pages = pages("POST", "/document/v1/ns/music/docid/?cluster=music&destinationCluster=archive&selection=true", null);
        assertEquals(5, documentCount(pages));
        for (int i = 0; i < 5; i++)
            assertEquals(fixture.get(fixture.music, "id:ns:music::" + i), fixture.get(fixture.archive, "id:ns:music::" + i));
    }

    @Test
    void copyOfATypeTheDestinationLacks_returns400() throws Exception {
        HttpTester.Response response = fixture.send("POST", "/document/v1/ns/artist/docid/?cluster=music&destinationCluster=archive&selection=true", null);
        assertEquals(400, response.getStatus());
        assertEquals("There is no document type 'artist' in cluster 'archive', only 'music'", VisitFixture.json(response).get("message"));
    }

    @Test
    void failingOperation_returns500WithCountAndMessage() throws Exception {
        useControlledBackend();
        fixture.putMusic(10);
        backend.writeOutcome = id -> Outcome.insufficientStorage("disk full");
        HttpTester.Response response = fixture.send("DELETE", "/document/v1/?cluster=music&selection=true", null);
        assertEquals(500, response.getStatus());
        assertEquals(Map.of("pathId", "/document/v1/", "documentCount", 10L, "message", "disk full"), VisitFixture.json(response));
    }

    @Test
    void contentUnavailableBeforeAnyBatch_returns503AndChangesNothing() throws Exception {
        useControlledBackend();
        fixture.putMusic(10);
        backend.hold = true;
        LocalConnector.LocalEndPoint endPoint = fixture.start("DELETE", "/document/v1/?cluster=music&selection=true");
        backend.fail(new ContentUnavailableException("Cassandra is unavailable for a visit", null));
        HttpTester.Response response = HttpTester.parseResponse(endPoint.getResponse(false, 10, TimeUnit.SECONDS));
        assertEquals(503, response.getStatus());
        assertEquals(Map.of("pathId", "/document/v1/", "documentCount", 0L, "message", "Cassandra is unavailable for a visit"),
                     VisitFixture.json(response));
        for (int i = 0; i < 10; i++)
            assertTrue(exists("id:ns:music::" + i), "document " + i);
    }

    @Test
    void conditionNotMet_isNotAFailure() throws Exception {
        useControlledBackend();
        fixture.putMusic(10);
        backend.writeOutcome = id -> Outcome.conditionFailed("changed meanwhile");
        assertEquals(10, documentCount(pages("DELETE", "/document/v1/?cluster=music&selection=true", null)));
    }

    @Test
    void timeChunk_endsPagesThatResumeUntilEverythingIsDone() throws Exception {
        useControlledBackend();
        fixture.putMusic(150);
        backend.onPull = () -> fixture.advance(Duration.ofSeconds(2));
        List<Map<String, Object>> pages = pages("DELETE", "/document/v1/?cluster=music&selection=true&timeChunk=1s", null);
        assertEquals(3, pages.size()); // 64 documents per batch, one batch per page
        assertEquals(150, documentCount(pages));
        for (int i = 0; i < 150; i++)
            assertFalse(exists("id:ns:music::" + i));
        assertEquals(150, fixture.handler.metrics().visitedDocuments("delete-where"));
    }

    private void useControlledBackend() throws Exception {
        fixture.close();
        fixture = VisitFixture.oneCluster(real -> backend = new ControlledBackend(real));
    }

}
