package io.sluice.container.document;

import org.eclipse.jetty.http.HttpTester;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.sluice.container.document.VisitParametersTest.encode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The request sequence of {@code vespa visit} (spec §6.8): cluster discovery through the {@code cluster=*} error, then
 * pages of 1000 per bucket space and cluster, parsed the way the Go client parses them.
 */
class VespaCliVisitTest {

    private VisitFixture fixture;

    @BeforeEach
    void start() throws Exception {
        fixture = VisitFixture.create();
    }

    @AfterEach
    void stop() {
        fixture.close();
    }

    /** What the CLI does with the discovery error: split on ',', and take the first quoted name of every later part. */
    private static List<String> clusterNames(String message) {
        assertTrue(message.contains("no content cluster '*'"), message);
        List<String> names = new ArrayList<>();
        String[] parts = message.split(",");
        for (int i = 1; i < parts.length; i++) {
            int first = parts[i].indexOf('\'');
            names.add(parts[i].substring(first + 1, parts[i].indexOf('\'', first + 1)));
        }
        return names;
    }

    @Test
    @SuppressWarnings("unchecked")
    void discoveryThenPagesPerSpaceAndCluster_printEveryDocumentOnce() throws Exception {
        List<String> music = fixture.putMusic(1500);
        fixture.put("id:ns:artist::tom", "{\"name\":\"Tom\"}");
        fixture.put(fixture.archive, "id:old:music::1", "{\"year\":1}");

        HttpTester.Response discovery = fixture.get("/document/v1/?cluster=%2A&wantedDocumentCount=1000&stream=false");
        assertEquals(400, discovery.getStatus());
        List<String> clusters = clusterNames((String) VisitFixture.json(discovery).get("message"));
        assertEquals(List.of("music", "archive"), clusters);

        List<String> printed = new ArrayList<>();
        for (String space : List.of("global", "default"))
            for (String cluster : clusters) {
                String continuation = "";
                do {
                    HttpTester.Response response = fixture.get("/document/v1/?cluster=" + cluster + "&fieldSet=" + encode("[document]")
                                                               + (continuation.isEmpty() ? "" : "&continuation=" + encode(continuation))
                                                               + "&wantedDocumentCount=1000&bucketSpace=" + space + "&stream=false");
                    assertEquals(200, response.getStatus(), response.getContent());
                    Map<String, Object> page = VisitFixture.json(response);
                    List<Map<String, Object>> documents = (List<Map<String, Object>>) page.get("documents");
                    assertEquals((long) documents.size(), page.get("documentCount"), "the CLI aborts on 'Inconsistent contents'");
                    documents.forEach(document -> printed.add((String) document.get("id")));
                    continuation = (String) page.getOrDefault("continuation", "");
                } while ( ! continuation.isEmpty());
            }
        List<String> expected = new ArrayList<>(music);
        expected.add("id:ns:artist::tom");
        expected.add("id:old:music::1");
        assertEquals(expected.size(), printed.size());
        assertEquals(Set.copyOf(expected), Set.copyOf(printed));
    }

}
