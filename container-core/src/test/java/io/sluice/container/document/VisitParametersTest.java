package io.sluice.container.document;

import io.sluice.content.DocumentKey;
import io.sluice.document.Slice;
import io.sluice.content.BucketSpace;
import io.sluice.content.ProgressToken;
import org.eclipse.jetty.http.HttpTester;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every parameter rule of visits, copy, update-where and delete-where, with Vespa's error texts, through the handler. */
class VisitParametersTest {

    private VisitFixture fixture;

    @BeforeEach
    void start() throws Exception {
        fixture = VisitFixture.create();
    }

    @AfterEach
    void stop() throws Exception {
        fixture.close();
    }

    private void assertBadRequest(String method, String pathAndQuery, String message, String... headers) throws Exception {
        HttpTester.Response response = fixture.send(method, pathAndQuery, null, headers);
        assertEquals(400, response.getStatus(), response.getContent());
        assertEquals(Map.of("pathId", pathAndQuery.replaceAll("\\?.*", ""), "message", message), VisitFixture.json(response));
    }

    @Test
    void clusterStar_returnsDiscoveryMessageTheVespaCliParses() throws Exception {
        assertBadRequest("GET", "/document/v1/?cluster=%2A&wantedDocumentCount=1000&stream=false",
                         "Your Vespa deployment has no content cluster '*', only 'music', 'archive'");
    }

    @Test
    void unknownCluster_returns400NamingTheClusters() throws Exception {
        assertBadRequest("GET", "/document/v1/ns/music/docid/?cluster=nope",
                         "Your Vespa deployment has no content cluster 'nope', only 'music', 'archive'");
    }

    @Test
    void rootWithoutCluster_returns400() throws Exception {
        assertBadRequest("GET", "/document/v1/",
                         "Must set 'cluster' parameter to a valid content cluster id when visiting at a root /document/v1/ level");
    }

    @Test
    void typeWithoutClusterAmongSeveral_returns400ListingThem() throws Exception {
        assertBadRequest("GET", "/document/v1/ns/music/docid/",
                         "Please specify one of the content clusters in your Vespa deployment: 'music', 'archive'");
    }

    @Test
    void typeNotInCluster_returns400() throws Exception {
        assertBadRequest("GET", "/document/v1/ns/artist/docid/?cluster=archive",
                         "There is no document type 'artist' in cluster 'archive', only 'music'");
    }

    @Test
    void nonPositiveWantedDocumentCount_returns400() throws Exception {
        assertBadRequest("GET", "/document/v1/?cluster=music&wantedDocumentCount=0", "wantedDocumentCount must be positive");
    }

    @Test
    void nonNumericWantedDocumentCount_returns400() throws Exception {
        assertBadRequest("GET", "/document/v1/?cluster=music&wantedDocumentCount=x", "For input string: \"x\"");
    }

    @Test
    void nonPositiveConcurrency_returns400() throws Exception {
        assertBadRequest("GET", "/document/v1/?cluster=music&concurrency=-1", "concurrency must be positive");
    }

    @Test
    void slicesWithoutSliceId_returns400() throws Exception {
        assertBadRequest("GET", "/document/v1/?cluster=music&slices=2", "None or both of 'slices' and 'sliceId' must be set");
    }

    @Test
    void sliceIdOutOfRange_returns400() throws Exception {
        assertBadRequest("GET", "/document/v1/?cluster=music&slices=3&sliceId=3", "sliceId must be in [0, 3), but was 3");
    }

    @Test
    void zeroSlices_returns400() throws Exception {
        assertBadRequest("GET", "/document/v1/?cluster=music&slices=0&sliceId=0", "slices must be positive, but was 0");
    }

    @Test
    void unknownBucketSpace_returns400() throws Exception {
        assertBadRequest("GET", "/document/v1/?cluster=music&bucketSpace=nope",
                         "Bucket space 'nope' is not a known bucket space; expected one of default, global");
    }

    @Test
    void toTimestampBeforeFromTimestamp_returns400() throws Exception {
        assertBadRequest("GET", "/document/v1/?cluster=music&fromTimestamp=10&toTimestamp=9",
                         "toTimestamp must be greater than, or equal to, fromTimestamp");
    }

    @Test
    void emptySelection_returns400() throws Exception {
        assertBadRequest("GET", "/document/v1/?cluster=music&selection=",
                         "Expected non-empty value for request property 'selection'");
    }

    @Test
    void malformedSelection_returns400WithTheParsersMessage() throws Exception {
        HttpTester.Response response = fixture.get("/document/v1/?cluster=music&selection=" + encode("music.year >"));
        assertEquals(400, response.getStatus());
        assertEquals("Unexpected end of selection at position 12 in selection 'music.year >': "
                     + "expected a value (literal, id, now(), $variable, document type or '(')",
                     VisitFixture.json(response).get("message"));
    }

    @Test
    void selectionNamingAnUnknownTypeOrField_returns400NamingIt() throws Exception {
        HttpTester.Response field = fixture.get("/document/v1/?cluster=music&selection=" + encode("music.yaer > 1990"));
        assertEquals(400, field.getStatus());
        assertEquals("Unexpected 'music.yaer' at position 0 in selection 'music.yaer > 1990': "
                     + "expected a field of document type 'music'", VisitFixture.json(field).get("message"));
        HttpTester.Response type = fixture.get("/document/v1/?cluster=music&selection=" + encode("true and musik"));
        assertEquals(400, type.getStatus());
        assertEquals("Unexpected 'musik' at position 9 in selection 'true and musik': expected a known document type",
                     VisitFixture.json(type).get("message"));
        HttpTester.Response delete = fixture.send("DELETE", "/document/v1/ns/music/docid/?cluster=music&selection="
                                                            + encode("music.nope == 1"), null);
        assertEquals(400, delete.getStatus()); // and nothing is removed
    }

    @Test
    void selectionNamingAnImportedField_readsItFromTheParentDocument() throws Exception {
        fixture.put("id:ns:artist::cp", "{\"name\":\"Coldplay\"}");
        fixture.put("id:ns:music::1", "{\"title\":\"Yellow\",\"by\":\"id:ns:artist::cp\"}");
        fixture.put("id:ns:music::2", "{\"title\":\"One\",\"by\":\"id:ns:artist::u2\"}");
        fixture.put("id:ns:music::3", "{\"title\":\"Plain\"}");
        HttpTester.Response coldplay = fixture.get("/document/v1/?cluster=music&stream=true&selection="
                                                   + encode("music.artist_name == 'Coldplay'"));
        assertEquals(200, coldplay.getStatus(), coldplay.getContent());
        assertTrue(coldplay.getContent().contains("id:ns:music::1"), coldplay.getContent());
        assertFalse(coldplay.getContent().contains("id:ns:music::2"), coldplay.getContent());
        HttpTester.Response orphans = fixture.get("/document/v1/?cluster=music&stream=true&selection="
                                                  + encode("music and music.artist_name == null"));
        assertEquals(200, orphans.getStatus(), orphans.getContent());
        assertTrue(orphans.getContent().contains("id:ns:music::2") && orphans.getContent().contains("id:ns:music::3"),
                   orphans.getContent());
        assertFalse(orphans.getContent().contains("id:ns:music::1"), orphans.getContent());
    }

    @Test
    void selectionNamingAnImportedField_whereTheEngineCannotReadParents_returns400() throws Exception {
        try (VisitFixture cannot = VisitFixture.oneCluster(ControlledBackend::new)) { // follows no references
            HttpTester.Response response = cannot.get("/document/v1/?cluster=music&selection="
                                                      + encode("music.artist_name == 'x'"));
            assertEquals(400, response.getStatus());
            assertEquals("Unexpected 'music.artist_name' at position 0 in selection 'music.artist_name == 'x'': expected"
                         + " a field of document type 'music' (content cluster 'music' does not read parent documents in"
                         + " selections: its engine does not support imported fields)",
                         VisitFixture.json(response).get("message"));
        }
    }

    @Test
    void selectionUsingAnImportedFieldAsACollection_returns400() throws Exception {
        HttpTester.Response response = fixture.get("/document/v1/?cluster=music&selection="
                                                   + encode("music.artist_name{1} == 'x'"));
        assertEquals(400, response.getStatus());
        assertTrue(VisitFixture.json(response).get("message").toString().contains("a single value"),
                   response.getContent());
    }

    @Test
    void selectionNamingATypeOfAnotherCluster_isValid() throws Exception {
        assertEquals(200, fixture.get("/document/v1/?cluster=music&selection=artist").getStatus());
    }

    @Test
    void unknownFieldSet_returns400() throws Exception {
        HttpTester.Response response = fixture.get("/document/v1/?cluster=music&fieldSet=music:nope");
        assertEquals(400, response.getStatus());
        assertEquals("Invalid field set 'music:nope': document type 'music' has no field or field set 'nope'",
                     VisitFixture.json(response).get("message"));
    }

    @Test
    void corruptContinuation_returns400() throws Exception {
        HttpTester.Response response = fixture.get("/document/v1/?cluster=music&continuation=not-a-token");
        assertEquals(400, response.getStatus());
        assertTrue(((String) VisitFixture.json(response).get("message")).startsWith("Invalid continuation token 'not-a-token': "));
    }

    @Test
    void forgedContinuation_returns400() throws Exception {
        String forged = Base64.getUrlEncoder().encodeToString(new byte[64]);
        HttpTester.Response response = fixture.get("/document/v1/?cluster=music&continuation=" + forged);
        assertEquals(400, response.getStatus());
        assertEquals("Invalid continuation token '" + forged.substring(0, 40) + "...': checksum mismatch",
                     VisitFixture.json(response).get("message"));
    }

    @Test
    void continuationOfAnotherSlice_returns400() throws Exception {
        String token = ProgressToken.of(16, Slice.of(2, 1), BucketSpace.DEFAULT, DocumentKey.bucketStart(0)).encoded();
        HttpTester.Response response = fixture.get("/document/v1/?cluster=music&slices=2&sliceId=0&continuation=" + encode(token));
        assertEquals(400, response.getStatus());
        assertEquals("Continuation token is for slice 1 of 2, not slice 0 of 2", VisitFixture.json(response).get("message"));
    }

    @Test
    void unparseableAccept_onStream_returns400() throws Exception {
        assertBadRequest("GET", "/document/v1/?cluster=music&stream=true",
                         "The request contained an unparseable HTTP Accept header. See: https://docs.vespa.ai/en/reference/api/document-v1.html#accept",
                         "Accept: application/jsonl;q=high");
    }

    @Test
    void copyWithoutDestinationCluster_returns400() throws Exception {
        assertBadRequest("POST", "/document/v1/?cluster=music&selection=true", "Must specify 'destinationCluster' at '/document/v1/'");
    }

    @Test
    void copyToUnknownCluster_returns400() throws Exception {
        assertBadRequest("POST", "/document/v1/?cluster=music&selection=true&destinationCluster=nope",
                         "Your Vespa deployment has no content cluster 'nope', only 'music', 'archive'");
    }

    @Test
    void deleteWhereWithoutCluster_returns400() throws Exception {
        assertBadRequest("DELETE", "/document/v1/ns/music/docid/?selection=true", "Must specify 'cluster' at '/document/v1/ns/music/docid/'");
    }

    @Test
    void deleteWhereWithoutSelection_returns400() throws Exception {
        assertBadRequest("DELETE", "/document/v1/ns/music/docid/?cluster=music", "Must specify 'selection' at '/document/v1/ns/music/docid/'");
    }

    @Test
    void updateWhereWithoutCluster_checkedBeforeSelection() throws Exception {
        assertBadRequest("PUT", "/document/v1/ns/music/docid/", "Must specify 'cluster' at '/document/v1/ns/music/docid/'");
    }

    @Test
    void deleteWhereWithWantedDocumentCount_returns400() throws Exception {
        assertBadRequest("DELETE", "/document/v1/ns/music/docid/?cluster=music&selection=true&wantedDocumentCount=10",
                         "May not specify 'wantedDocumentCount' at '/document/v1/ns/music/docid/'");
    }

    @Test
    void copyWithFieldSet_returns400() throws Exception {
        assertBadRequest("POST", "/document/v1/?cluster=music&selection=true&destinationCluster=archive&fieldSet=%5Ball%5D",
                         "May not specify 'fieldSet' at '/document/v1/'");
    }

    @Test
    void budget_leavesFiveSecondsOrTenPercent() {
        assertEquals(Duration.ofSeconds(175), BackendVisitRoutes.budget(Duration.ofSeconds(180)));
        assertEquals(Duration.ofMillis(8900), BackendVisitRoutes.budget(Duration.ofSeconds(10)));
        assertEquals(Duration.ofMillis(1), BackendVisitRoutes.budget(Duration.ofMillis(50)));
    }

    static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

}
