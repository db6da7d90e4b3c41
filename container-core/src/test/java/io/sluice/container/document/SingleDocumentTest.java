package io.sluice.container.document;

import io.sluice.config.DocumentApiConfig;
import io.sluice.container.JsonTree;
import org.eclipse.jetty.http.HttpTester;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Single-document operations (routes 5–7) over the in-memory backend, through an in-memory connector. */
class SingleDocumentTest {

    private static final String DOC = "/document/v1/ns/music/docid/one";
    private static final String PUT_BODY = "{\"fields\":{\"artist\":\"Tom Waits\",\"year\":1983,\"embedding\":[1.0,2.0,3.0]}}";

    private HandlerFixture fixture;

    @BeforeEach
    void start() throws Exception {
        fixture = HandlerFixture.create();
    }

    @AfterEach
    void stop() {
        fixture.close();
    }

    private static Map<String, Object> json(HttpTester.Response response) {
        return JsonTree.object(response.getContent());
    }

    @Test
    void handshake_dryRunWithoutBodyOnUnknownType_returns200() throws Exception {
        HttpTester.Response response = fixture.send("POST", "/document/v1/feeder/handshake/docid/dummy?dryRun=true&timeout=30000ms");
        assertEquals(200, response.getStatus());
        // The test parser's header cache matches values case-insensitively, so it may show its own spelling.
        assertTrue("application/json; charset=UTF-8".equalsIgnoreCase(response.get("Content-Type")), response.get("Content-Type"));
        assertEquals(Map.of("pathId", "/document/v1/feeder/handshake/docid/dummy", "id", "id:feeder:handshake::dummy"),
                     json(response));
    }

    @Test
    void put_returns200WithPathIdAndId() throws Exception {
        HttpTester.Response response = fixture.send("POST", DOC, PUT_BODY);
        assertEquals(200, response.getStatus());
        assertEquals(Map.of("pathId", DOC, "id", "id:ns:music::one"), json(response));
    }

    @Test
    void get_afterPut_returnsFieldsInPutFormat() throws Exception {
        fixture.send("POST", DOC, PUT_BODY);
        HttpTester.Response response = fixture.send("GET", DOC);
        assertEquals(200, response.getStatus());
        assertEquals(JsonTree.parse("{\"pathId\":\"" + DOC + "\",\"id\":\"id:ns:music::one\",\"fields\":{\"artist\":\"Tom Waits\","
                                    + "\"year\":1983,\"embedding\":{\"type\":\"tensor<float>(x[3])\",\"values\":[1.0,2.0,3.0]}}}"),
                     json(response));
    }

    @Test
    void get_missing_returns404WithIdAndNoMessage() throws Exception {
        HttpTester.Response response = fixture.send("GET", DOC);
        assertEquals(404, response.getStatus());
        assertEquals(Map.of("pathId", DOC, "id", "id:ns:music::one"), json(response));
    }

    @Test
    void get_fieldSetId_returnsEmptyFields() throws Exception {
        fixture.send("POST", DOC, PUT_BODY);
        assertEquals(Map.of(), json(fixture.send("GET", DOC + "?fieldSet=%5Bid%5D")).get("fields"));
    }

    @Test
    void get_fieldSetWithFields_returnsOnlyThose() throws Exception {
        fixture.send("POST", DOC, PUT_BODY);
        assertEquals(Map.of("year", 1983L), json(fixture.send("GET", DOC + "?fieldSet=music:year")).get("fields"));
    }

    @Test
    void get_badFieldSet_returns400() throws Exception {
        HttpTester.Response response = fixture.send("GET", DOC + "?fieldSet=music:nope");
        assertEquals(400, response.getStatus());
        assertEquals("Invalid field set 'music:nope': document type 'music' has no field or field set 'nope'", json(response).get("message"));
    }

    @Test
    void get_formatTensorsShortValue_rendersBareValues() throws Exception {
        fixture.send("POST", DOC, PUT_BODY);
        Map<?, ?> fields = (Map<?, ?>) json(fixture.send("GET", DOC + "?format.tensors=short-value")).get("fields");
        assertEquals(List.of(1.0, 2.0, 3.0), fields.get("embedding"));
    }

    @Test
    void get_unknownTensorFormat_returns400() throws Exception {
        assertEquals(400, fixture.send("GET", DOC + "?format.tensors=nope").getStatus());
    }

    @Test
    void get_dryRun_returns400() throws Exception {
        HttpTester.Response response = fixture.send("GET", DOC + "?dryRun=true");
        assertEquals(400, response.getStatus());
        assertEquals("May not specify 'dryRun' at '" + DOC + "'", json(response).get("message"));
    }

    @Test
    void get_unknownCluster_returns400NamingClusters() throws Exception {
        HttpTester.Response response = fixture.send("GET", DOC + "?cluster=nope");
        assertEquals(400, response.getStatus());
        assertEquals("Your Vespa deployment has no content cluster 'nope', only 'music'", json(response).get("message"));
    }

    @Test
    void get_knownCluster_routesThere() throws Exception {
        fixture.send("POST", DOC, PUT_BODY);
        assertEquals(200, fixture.send("GET", DOC + "?cluster=music").getStatus());
    }

    @Test
    void put_unknownDocumentType_returns400() throws Exception {
        HttpTester.Response response = fixture.send("POST", "/document/v1/ns/nope/docid/one", PUT_BODY);
        assertEquals(400, response.getStatus());
        assertEquals(Map.of("pathId", "/document/v1/ns/nope/docid/one", "message", "Document type nope does not exist"), json(response));
    }

    @Test
    void put_unknownField_returns400() throws Exception {
        HttpTester.Response response = fixture.send("POST", DOC, "{\"fields\":{\"nope\":1}}");
        assertEquals(400, response.getStatus());
        assertTrue(((String) json(response).get("message")).contains("nope"), json(response).toString());
    }

    @Test
    void put_unknownFieldWhenLenient_returns200WithIgnoredFieldsHeader() throws Exception {
        fixture.close();
        fixture = HandlerFixture.create(new DocumentApiConfig(DocumentApiConfig.MIB, Duration.ofSeconds(180), true, 256, 100 * DocumentApiConfig.MIB));
        HttpTester.Response response = fixture.send("POST", DOC, "{\"fields\":{\"nope\":1,\"year\":2}}");
        assertEquals(200, response.getStatus());
        assertEquals("true", response.get("X-Vespa-Ignored-Fields"));
    }

    @Test
    void put_withoutUnknownFields_hasNoIgnoredFieldsHeader() throws Exception {
        assertNull(fixture.send("POST", DOC, PUT_BODY).get("X-Vespa-Ignored-Fields"));
    }

    @Test
    void put_malformedJson_returns400() throws Exception {
        HttpTester.Response response = fixture.send("POST", DOC, "{\"fields\":");
        assertEquals(400, response.getStatus());
        assertTrue(((String) json(response).get("message")).startsWith("failed parsing document: "), json(response).toString());
    }

    @Test
    void put_emptyBody_returns400() throws Exception {
        HttpTester.Response response = fixture.send("POST", DOC, "");
        assertEquals(400, response.getStatus());
        assertEquals("expected start of root object, got null", json(response).get("message"));
    }

    @Test
    void put_bodyOverLimit_returns413() throws Exception {
        fixture.close();
        fixture = HandlerFixture.create(new DocumentApiConfig(DocumentApiConfig.MIB, Duration.ofSeconds(180), false, 256, 100 * DocumentApiConfig.MIB));
        String big = "{\"fields\":{\"artist\":\"" + "x".repeat((int) DocumentApiConfig.MIB) + "\"}}";
        HttpTester.Response response = fixture.send("POST", DOC, big);
        assertEquals(413, response.getStatus());
        assertEquals("Document operation request size " + big.length() + " bytes exceeds maximum size of 1048576 bytes. "
                     + "See https://docs.vespa.ai/en/writing/document-v1-api-guide.html#request-size-limit",
                     json(response).get("message"));
    }

    @Test
    void put_chunkedBodyOverLimit_returns413() throws Exception {
        fixture.close();
        fixture = HandlerFixture.create(new DocumentApiConfig(DocumentApiConfig.MIB, Duration.ofSeconds(180), false, 256, 100 * DocumentApiConfig.MIB));
        String chunk = "x".repeat(600_000);
        String raw = "POST " + DOC + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n"
                     + Integer.toHexString(chunk.length()) + "\r\n" + chunk + "\r\n"
                     + Integer.toHexString(chunk.length()) + "\r\n" + chunk + "\r\n0\r\n\r\n";
        HttpTester.Response response = HttpTester.parseResponse(fixture.connector().getResponse(raw));
        assertEquals(413, response.getStatus());
        assertTrue(((String) json(response).get("message")).endsWith("exceeds maximum size of 1048576 bytes. "
                                                                     + "See https://docs.vespa.ai/en/writing/document-v1-api-guide.html#request-size-limit"));
    }

    @Test
    void put_conditionNotMet_returns412() throws Exception {
        fixture.send("POST", DOC, PUT_BODY);
        HttpTester.Response response = fixture.send("POST", DOC + "?condition=music.year%3D%3D1", PUT_BODY);
        assertEquals(412, response.getStatus());
        assertEquals(List.of("id", "message", "pathId"), json(response).keySet().stream().sorted().toList());
    }

    @Test
    void conditionOnAnImportedField_isEvaluatedWithTheParentDocument() throws Exception {
        assertEquals(200, fixture.send("POST", "/document/v1/ns/artist/docid/cp",
                                       "{\"fields\":{\"name\":\"Coldplay\"}}").getStatus());
        assertEquals(200, fixture.send("POST", DOC, "{\"fields\":{\"title\":\"Yellow\",\"by\":\"id:ns:artist::cp\"}}")
                                 .getStatus());
        String update = "{\"fields\":{\"year\":{\"assign\":2000}}}";
        assertEquals(412, fixture.send("PUT", DOC + "?condition=music.artist_name%3D%3D%27U2%27", update).getStatus());
        assertEquals(200, fixture.send("PUT", DOC + "?condition=music.artist_name%3D%3D%27Coldplay%27", update).getStatus());
        assertEquals(2000, ((Number) ((Map<?, ?>) json(fixture.send("GET", DOC)).get("fields")).get("year")).intValue());
        // the parent renamed: the same condition fails now
        fixture.send("POST", "/document/v1/ns/artist/docid/cp", "{\"fields\":{\"name\":\"Coldplay!\"}}");
        assertEquals(412, fixture.send("DELETE", DOC + "?condition=music.artist_name%3D%3D%27Coldplay%27").getStatus());
        assertEquals(200, fixture.send("GET", DOC).getStatus());
    }

    @Test
    void conditionNamingAnUnknownField_returns400AndChangesNothing() throws Exception {
        fixture.send("POST", DOC, PUT_BODY);
        String before = fixture.send("GET", DOC).getContent();
        HttpTester.Response put = fixture.send("POST", DOC + "?condition=music.yaer%3D%3D1983", "{\"fields\":{\"year\":5}}");
        assertEquals(400, put.getStatus());
        assertEquals("Illegal condition 'music.yaer==1983': Unexpected 'music.yaer' at position 0 in selection "
                     + "'music.yaer==1983': expected a field of document type 'music'", json(put).get("message"));
        String body = "{\"condition\":\"musik.year==1983\",\"fields\":{\"year\":{\"assign\":5}}}";
        assertEquals(400, fixture.send("PUT", DOC, body).getStatus());
        assertEquals(400, fixture.send("DELETE", DOC + "?condition=music.artist_name%7B1%7D%3D%3D%27x%27").getStatus());
        assertEquals(before, fixture.send("GET", DOC).getContent());
    }

    @Test
    void put_conditionOnMissingWithCreate_creates() throws Exception {
        assertEquals(200, fixture.send("POST", DOC + "?condition=music.year%3D%3D1&create=true", PUT_BODY).getStatus());
        assertEquals(200, fixture.send("GET", DOC).getStatus());
    }

    @Test
    void put_conditionParameterOverridesBody() throws Exception {
        fixture.send("POST", DOC, PUT_BODY);
        String body = "{\"condition\":\"music.year==1\",\"fields\":{\"year\":5}}";
        assertEquals(200, fixture.send("POST", DOC + "?condition=music.year%3D%3D1983", body).getStatus());
    }

    @Test
    void put_bodyCondition_applies() throws Exception {
        fixture.send("POST", DOC, PUT_BODY);
        assertEquals(412, fixture.send("POST", DOC, "{\"condition\":\"music.year==1\",\"fields\":{\"year\":5}}").getStatus());
    }

    @Test
    void put_malformedCondition_returns400() throws Exception {
        assertEquals(400, fixture.send("POST", DOC + "?condition=%3D%3D%3D", PUT_BODY).getStatus());
    }

    @Test
    void update_missingDocument_returns200() throws Exception {
        HttpTester.Response response = fixture.send("PUT", DOC, "{\"fields\":{\"year\":{\"assign\":2000}}}");
        assertEquals(200, response.getStatus());
        assertEquals(404, fixture.send("GET", DOC).getStatus());
    }

    @Test
    void update_missingWithCreate_createsDocument() throws Exception {
        assertEquals(200, fixture.send("PUT", DOC + "?create=true", "{\"fields\":{\"year\":{\"assign\":2000}}}").getStatus());
        assertEquals(Map.of("year", 2000L), json(fixture.send("GET", DOC)).get("fields"));
    }

    @Test
    void update_createParameterFalseOverridesBodyTrue() throws Exception {
        fixture.send("PUT", DOC + "?create=false", "{\"create\":true,\"fields\":{\"year\":{\"assign\":2000}}}");
        assertEquals(404, fixture.send("GET", DOC).getStatus());
    }

    @Test
    void update_existing_appliesOperations() throws Exception {
        fixture.send("POST", DOC, PUT_BODY);
        fixture.send("PUT", DOC, "{\"fields\":{\"year\":{\"increment\":1}}}");
        assertEquals(1984L, ((Map<?, ?>) json(fixture.send("GET", DOC)).get("fields")).get("year"));
    }

    @Test
    void update_conditionOnMissing_returns412() throws Exception {
        assertEquals(412, fixture.send("PUT", DOC + "?condition=music.year%3D%3D1", "{\"fields\":{\"year\":{\"assign\":1}}}").getStatus());
    }

    @Test
    void update_unknownField_returns400() throws Exception {
        HttpTester.Response response = fixture.send("PUT", DOC, "{\"fields\":{\"nope\":{\"assign\":1}}}");
        assertEquals(400, response.getStatus());
        assertTrue(((String) json(response).get("message")).contains("nope"), json(response).toString());
    }

    @Test
    void remove_missingDocument_returns200() throws Exception {
        HttpTester.Response response = fixture.send("DELETE", DOC);
        assertEquals(200, response.getStatus());
        assertEquals(Map.of("pathId", DOC, "id", "id:ns:music::one"), json(response));
    }

    @Test
    void remove_existing_removesDocument() throws Exception {
        fixture.send("POST", DOC, PUT_BODY);
        assertEquals(200, fixture.send("DELETE", DOC).getStatus());
        assertEquals(404, fixture.send("GET", DOC).getStatus());
    }

    @Test
    void remove_conditionOnMissing_returns412() throws Exception {
        assertEquals(412, fixture.send("DELETE", DOC + "?condition=music.year%3D%3D1").getStatus());
    }

    @Test
    void remove_dryRun_leavesDocument() throws Exception {
        fixture.send("POST", DOC, PUT_BODY);
        assertEquals(200, fixture.send("DELETE", DOC + "?dryRun=true").getStatus());
        assertEquals(200, fixture.send("GET", DOC).getStatus());
    }

    @Test
    void emptyParameter_returns400() throws Exception {
        HttpTester.Response response = fixture.send("POST", DOC + "?route=", PUT_BODY);
        assertEquals(400, response.getStatus());
        assertEquals("Expected non-empty value for request property 'route'", json(response).get("message"));
    }

    @Test
    void badTracelevel_returns400WithParseError() throws Exception {
        HttpTester.Response response = fixture.send("GET", DOC + "?tracelevel=x");
        assertEquals(400, response.getStatus());
        assertEquals("For input string: \"x\"", json(response).get("message"));
    }

    @Test
    void tracelevelOutsideZeroToNine_returns400() throws Exception {
        for (String level : List.of("10", "-1")) {
            HttpTester.Response response = fixture.send("POST", DOC + "?tracelevel=" + level, PUT_BODY);
            assertEquals(400, response.getStatus());
            assertEquals("tracelevel must be from 0 to 9, but was " + level, json(response).get("message"));
        }
    }

    @Test
    void routeNamingContentCluster_writesThere() throws Exception {
        for (String route : List.of("default", "indexing", "music", "[Content:cluster=music]", "music-index",
                                    "music-direct", "storage/cluster.music",
                                    "[Content:cluster=music;clusterconfigid=music]")) {
            String encoded = java.net.URLEncoder.encode(route, java.nio.charset.StandardCharsets.UTF_8);
            assertEquals(200, fixture.send("POST", DOC + "?route=" + encoded, PUT_BODY).getStatus(), route);
            assertEquals(200, fixture.send("PUT", DOC + "?route=" + encoded,
                                           "{\"fields\":{\"year\":{\"assign\":1984}}}").getStatus(), route);
            assertEquals(200, fixture.send("DELETE", DOC + "?route=" + encoded).getStatus(), route);
        }
    }

    @Test
    void routeNamingAnythingElse_returns400NamingIt() throws Exception {
        for (String method : List.of("POST", "PUT", "DELETE")) {
            HttpTester.Response response = fixture.send(method, DOC + "?route=nonexistent-route", PUT_BODY);
            assertEquals(400, response.getStatus(), method);
            assertEquals("Route 'nonexistent-route' does not name a content cluster: Sluice routes writes by 'default', "
                         + "a content cluster's name or [Content:cluster=<name>]; content clusters are 'music'",
                         json(response).get("message"), method);
        }
        assertEquals(400, fixture.send("POST", DOC + "?route=%5BContent:cluster%3Dother%5D", PUT_BODY).getStatus());
        assertEquals(400, fixture.send("POST", DOC + "?route=%5BDocumentRouteSelector%5D", PUT_BODY).getStatus());
        assertEquals(404, fixture.send("GET", DOC).getStatus(), "nothing was written");
    }

    @Test
    void clusterOnWrites_routesThere_andAnUnknownOneIs400() throws Exception {
        for (String method : List.of("POST", "PUT", "DELETE")) {
            String body = method.equals("PUT") ? "{\"fields\":{\"year\":{\"assign\":1984}}}" : PUT_BODY;
            assertEquals(200, fixture.send(method, DOC + "?cluster=music", body).getStatus(), method);
            HttpTester.Response unknown = fixture.send(method, DOC + "?cluster=nope", PUT_BODY);
            assertEquals(400, unknown.getStatus(), method);
            assertEquals("Your Vespa deployment has no content cluster 'nope', only 'music'", json(unknown).get("message"));
        }
        HttpTester.Response disagreeing = fixture.send("POST", DOC + "?cluster=nope&route=music", PUT_BODY);
        assertEquals(400, disagreeing.getStatus());
        assertEquals("Parameters 'route' and 'cluster' name different content clusters, 'music' and 'nope'",
                     json(disagreeing).get("message"));
        assertEquals(200, fixture.send("POST", DOC + "?cluster=music&route=%5BContent:cluster%3Dmusic%5D", PUT_BODY)
                                 .getStatus());
    }

    @Test
    void tracelevel_addsTraceArrayBeforeMessage() throws Exception {
        HttpTester.Response response = fixture.send("POST", DOC + "?tracelevel=3", PUT_BODY);
        assertEquals(List.of("pathId", "id", "trace"), List.copyOf(json(response).keySet()));
        assertTrue(((List<?>) json(response).get("trace")).size() >= 2, json(response).toString());
    }

    @Test
    void globalDocumentType_storedInGlobalSpace() throws Exception {
        assertEquals(200, fixture.send("POST", "/document/v1/ns/artist/docid/a", "{\"fields\":{\"name\":\"x\"}}").getStatus());
        assertEquals(200, fixture.send("GET", "/document/v1/ns/artist/docid/a").getStatus());
    }

    @Test
    void metrics_countRequestsResponsesAndBytes() throws Exception {
        fixture.send("POST", DOC, PUT_BODY);
        fixture.send("GET", "/document/v1/ns/music/docid/missing");
        List<io.sluice.container.Metric> metrics = fixture.handler.metrics().metrics();
        assertTrue(metrics.contains(io.sluice.container.Metric.counter("httpapi_requests", Map.of("httpMethod", "POST"), 1)), metrics.toString());
        assertTrue(metrics.contains(io.sluice.container.Metric.counter("httpapi_responses", Map.of("statusClass", "4xx"), 1)), metrics.toString());
        assertTrue(metrics.contains(io.sluice.container.Metric.counter("httpapi_bytes_received", Map.of(), PUT_BODY.length())), metrics.toString());
        assertTrue(metrics.contains(io.sluice.container.Metric.counter("httpapi_operations", Map.of("operation", "get", "outcome", "not_found"), 1)),
                   metrics.toString());
        assertEquals(2L, metrics.stream().filter(m -> m.name().equals("httpapi_latency")).findFirst().orElseThrow().values().get("count"));
    }

    @Test
    void update_unknownFieldWhenLenient_returns200WithIgnoredFieldsHeader() throws Exception {
        fixture.close();
        fixture = HandlerFixture.create(new DocumentApiConfig(DocumentApiConfig.MIB, Duration.ofSeconds(180), true, 256, 100 * DocumentApiConfig.MIB));
        HttpTester.Response response = fixture.send("PUT", DOC + "?create=true", "{\"fields\":{\"nope\":{\"assign\":1},\"year\":{\"assign\":2}}}");
        assertEquals(200, response.getStatus());
        assertEquals("true", response.get("X-Vespa-Ignored-Fields"));
    }

}
