package io.sluice.container.document;

import org.eclipse.jetty.http.HttpTester;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.sluice.container.document.VisitParametersTest.encode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Non-streamed GET visits through the handler over in-memory backends: shapes, paging, selections, slices. */
class VisitTest {

    private VisitFixture fixture;

    @BeforeEach
    void start() throws Exception {
        fixture = VisitFixture.create();
    }

    @AfterEach
    void stop() {
        fixture.close();
    }

    /** Follows continuations from {@code pathAndQuery} until there is none; returns the pages. */
    static List<Map<String, Object>> pages(VisitFixture fixture, String pathAndQuery) throws Exception {
        List<Map<String, Object>> pages = new ArrayList<>();
        String continuation = null;
        do {
            HttpTester.Response response = fixture.get(pathAndQuery + (continuation == null ? "" : "&continuation=" + encode(continuation)));
            assertEquals(200, response.getStatus(), response.getContent());
            Map<String, Object> page = VisitFixture.json(response);
            pages.add(page);
            continuation = (String) page.get("continuation");
        } while (continuation != null && pages.size() < 10_000);
        return pages;
    }

    /** The ids of every document of every page, in order; checks each page's documentCount. */
    @SuppressWarnings("unchecked")
    static List<String> ids(List<Map<String, Object>> pages) {
        List<String> ids = new ArrayList<>();
        for (Map<String, Object> page : pages) {
            List<Map<String, Object>> documents = (List<Map<String, Object>>) page.get("documents");
            assertEquals((long) documents.size(), page.get("documentCount"));
            for (Map<String, Object> document : documents)
                ids.add((String) (document.containsKey("id") ? document.get("id") : document.get("remove")));
        }
        return ids;
    }

    @Test
    void emptyCorpus_returnsEmptyPageWithoutContinuation() throws Exception {
        HttpTester.Response response = fixture.get("/document/v1/?cluster=music");
        assertEquals(200, response.getStatus());
        assertEquals("application/json; charset=utf-8", response.get("Content-Type").toLowerCase(java.util.Locale.ROOT));
        assertEquals(Map.of("pathId", "/document/v1/", "documents", List.of(), "documentCount", 0L), VisitFixture.json(response));
    }

    @Test
    void oneDocument_renderedWithIdAndFields() throws Exception {
        fixture.put("id:ns:music::a", "{\"title\":\"Blue\",\"year\":1971,\"embedding\":[1.0,2.0,3.0]}");
        HttpTester.Response response = fixture.get("/document/v1/ns/music/docid/?cluster=music");
        assertEquals(Map.of("pathId", "/document/v1/ns/music/docid/",
                            "documents", List.of(Map.of("id", "id:ns:music::a",
                                                        "fields", Map.of("title", "Blue", "year", 1971L,
                                                                         "embedding", Map.of("type", "tensor<float>(x[3])",
                                                                                             "values", List.of(1.0, 2.0, 3.0))))),
                            "documentCount", 1L),
                     VisitFixture.json(response));
    }

    @Test
    void hexTensorFormat_isNotUsedForJsonVisits() throws Exception {
        fixture.put("id:ns:music::a", "{\"embedding\":[1.0,2.0,3.0]}");
        Map<String, Object> page = VisitFixture.json(fixture.get("/document/v1/?cluster=music&format.tensors=hex-value"));
        assertEquals(List.of(Map.of("id", "id:ns:music::a", "fields", Map.of("embedding", List.of(1.0, 2.0, 3.0)))),
                     page.get("documents"));
    }

    @Test
    void hexTensorFormat_isUsedForJsonLines() throws Exception {
        fixture.put("id:ns:music::a", "{\"embedding\":[1.0,2.0,3.0]}");
        HttpTester.Response response = fixture.get("/document/v1/?cluster=music&stream=true&format.tensors=hex-value",
                                                   "Accept: application/jsonl");
        Map<String, Object> put = io.sluice.container.JsonTree.object(response.getContent().split("\n")[0]);
        assertEquals(Map.of("put", "id:ns:music::a", "fields", Map.of("embedding", "3F8000004000000040400000")), put);
    }

    @Test
    void defaultWantedDocumentCount_pageHasDocumentsAndContinuation() throws Exception {
        fixture.putMusic(20);
        Map<String, Object> page = VisitFixture.json(fixture.get("/document/v1/?cluster=music"));
        assertTrue((Long) page.get("documentCount") >= 1);
        assertTrue(page.containsKey("continuation"));
    }

    @Test
    void pagingUntilDone_returnsEveryDocumentExactlyOnce() throws Exception {
        List<String> all = fixture.putMusic(60);
        List<Map<String, Object>> pages = pages(fixture, "/document/v1/?cluster=music&wantedDocumentCount=7");
        List<String> ids = ids(pages);
        assertEquals(Set.copyOf(all), Set.copyOf(ids));
        assertEquals(all.size(), ids.size());
        assertTrue(pages.size() > 2);
    }

    @Test
    void slices_areDisjointAndCoverEverything() throws Exception {
        List<String> all = fixture.putMusic(60);
        List<String> union = new ArrayList<>();
        for (int sliceId = 0; sliceId < 3; sliceId++) {
            List<String> slice = ids(pages(fixture, "/document/v1/ns/music/docid/?cluster=music&wantedDocumentCount=5&slices=3&sliceId=" + sliceId));
            assertFalse(slice.isEmpty());
            union.addAll(slice);
        }
        assertEquals(all.size(), union.size());
        assertEquals(Set.copyOf(all), new HashSet<>(union));
    }

    @Test
    void selection_isAndedWithThePath() throws Exception {
        fixture.putMusic(10);
        fixture.put("id:other:music::x", "{\"year\":2009}");
        List<String> ids = ids(pages(fixture, "/document/v1/ns/music/docid/?cluster=music&wantedDocumentCount=100&selection="
                                              + encode("music.year >= 2008")));
        assertEquals(Set.of("id:ns:music::8", "id:ns:music::9"), Set.copyOf(ids));
    }

    @Test
    void unknownFieldInSelection_isABadRequest_notAnEmptyResult() throws Exception {
        fixture.putMusic(3);
        HttpTester.Response response = fixture.get("/document/v1/?cluster=music&wantedDocumentCount=100&selection="
                                                   + encode("music.nope == 1"));
        assertEquals(400, response.getStatus()); // a misspelt field would otherwise look like an empty corpus
    }

    @Test
    void groupPath_visitsOnlyThatGroup() throws Exception {
        fixture.put("id:ns:music:g=red:a", "{\"year\":1}");
        fixture.put("id:ns:music:g=red:b", "{\"year\":2}");
        fixture.put("id:ns:music:g=blue:c", "{\"year\":3}");
        List<String> ids = ids(pages(fixture, "/document/v1/ns/music/group/red/?cluster=music&wantedDocumentCount=100"));
        assertEquals(Set.of("id:ns:music:g=red:a", "id:ns:music:g=red:b"), Set.copyOf(ids));
    }

    @Test
    void numberPath_visitsOnlyThatNumberInEverySlice() throws Exception {
        fixture.put("id:ns:music:n=7:a", "{\"year\":1}");
        fixture.put("id:ns:music:n=8:b", "{\"year\":2}");
        for (int sliceId = 0; sliceId < 2; sliceId++)
            assertEquals(List.of("id:ns:music:n=7:a"),
                         ids(pages(fixture, "/document/v1/ns/music/number/7/?cluster=music&slices=2&sliceId=" + sliceId)));
    }

    @Test
    void fieldSet_limitsTheFields() throws Exception {
        fixture.put("id:ns:music::a", "{\"title\":\"Blue\",\"year\":1971}");
        Map<String, Object> page = VisitFixture.json(fixture.get("/document/v1/?cluster=music&fieldSet=music:year"));
        assertEquals(List.of(Map.of("id", "id:ns:music::a", "fields", Map.of("year", 1971L))), page.get("documents"));
    }

    @Test
    void includeRemoves_returnsTombstones() throws Exception {
        fixture.put("id:ns:music::a", "{\"year\":1}");
        fixture.put("id:ns:music::b", "{\"year\":2}");
        fixture.remove("id:ns:music::b");
        Map<String, Object> without = VisitFixture.json(fixture.get("/document/v1/?cluster=music&wantedDocumentCount=10"));
        Map<String, Object> with = VisitFixture.json(fixture.get("/document/v1/?cluster=music&wantedDocumentCount=10&includeRemoves=true"));
        assertEquals(List.of(Map.of("id", "id:ns:music::a", "fields", Map.of("year", 1L))), without.get("documents"));
        assertTrue(((List<?>) with.get("documents")).contains(Map.of("remove", "id:ns:music::b")));
        assertEquals(2L, with.get("documentCount"));
    }

    @Test
    void timestamps_selectAnInclusiveRange() throws Exception {
        long first = fixture.clock.instant().toEpochMilli() * 1000;
        fixture.put("id:ns:music::early", "{\"year\":1}");
        fixture.advance(Duration.ofSeconds(1));
        long second = fixture.clock.instant().toEpochMilli() * 1000;
        fixture.put("id:ns:music::late", "{\"year\":2}");
        String query = "/document/v1/?cluster=music&wantedDocumentCount=10";
        assertEquals(List.of("id:ns:music::late"), ids(pages(fixture, query + "&fromTimestamp=" + second)));
        assertEquals(List.of("id:ns:music::early"), ids(pages(fixture, query + "&fromTimestamp=" + first + "&toTimestamp=" + (second - 1))));
    }

    @Test
    void bucketSpace_separatesGlobalDocuments() throws Exception {
        fixture.put("id:ns:music::a", "{\"year\":1}");
        fixture.put("id:ns:artist::b", "{\"name\":\"Tom\"}");
        assertEquals(List.of("id:ns:music::a"), ids(pages(fixture, "/document/v1/?cluster=music&wantedDocumentCount=10")));
        assertEquals(List.of("id:ns:artist::b"), ids(pages(fixture, "/document/v1/?cluster=music&wantedDocumentCount=10&bucketSpace=global")));
    }

    @Test
    void globalTypeInPath_visitsItsOwnSpace() throws Exception {
        fixture.put("id:ns:artist::b", "{\"name\":\"Tom\"}");
        assertEquals(List.of("id:ns:artist::b"), ids(pages(fixture, "/document/v1/ns/artist/docid/?cluster=music&bucketSpace=default")));
    }

    @Test
    void visit_countsDocumentsInMetrics() throws Exception {
        fixture.putMusic(5);
        ids(pages(fixture, "/document/v1/?cluster=music&wantedDocumentCount=100"));
        assertEquals(5, fixture.handler.metrics().visitedDocuments("visit"));
    }

    @Test
    void tracelevel_addsTraceToThePage() throws Exception {
        fixture.putMusic(1);
        Map<String, Object> page = VisitFixture.json(fixture.get("/document/v1/?cluster=music&tracelevel=1"));
        assertEquals(List.of("pathId", "documents", "documentCount", "trace"), List.copyOf(page.keySet()));
        assertFalse(((List<?>) page.get("trace")).isEmpty());
    }

    @Test
    void continuation_isUrlSafe() throws Exception {
        fixture.putMusic(20);
        String continuation = (String) VisitFixture.json(fixture.get("/document/v1/?cluster=music")).get("continuation");
        assertTrue(continuation.matches("[A-Za-z0-9_=-]+"), continuation);
    }

}
