package io.sluice.http;

import io.sluice.container.JsonTree;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Feeds through injected faults, 20% 429 and 5% 503, with both feed clients that retry them: Sluice's {@code feed}
 * command and the official vespa-feed-client. Each must finish with every operation successful, and every document
 * stored exactly once: the visit finds each id once with its fields, and the handler behind the faults saw exactly one
 * successful put per document (a faulted request never reaches it).
 */
class FaultFeedTest {

    private static final int DOCUMENTS = 2000;
    private static final String FAULTS = "429@20%,503@5%";

    @TempDir
    Path directory;

    private SluiceServer server;

    @AfterEach
    void stop() {
        if (server != null)
            server.stop();
    }

    private URI start() throws IOException {
        Path app = directory.resolve("app");
        Files.createDirectories(app.resolve("schemas"));
        Files.writeString(app.resolve("schemas/music.sd"), DocumentServers.SCHEMA);
        Files.writeString(app.resolve("services.xml"),
                          "<services version=\"1.0\">\n"
                          + "<container id=\"default\" version=\"1.0\"><http><server id=\"plain\" port=\"8080\"/></http>"
                          + "<document-api/></container>\n"
                          + "<content id=\"music\" version=\"1.0\"><min-redundancy>1</min-redundancy>"
                          + "<documents><document type=\"music\" mode=\"index\"/></documents>"
                          + "<nodes><node hostalias=\"node1\" distribution-key=\"0\"/></nodes></content>\n"
                          + "</services>\n");
        server = Main.serve(LaunchOptions.parse("--app", app.toString(), "--ephemeral", "--port", "0",
                                                "--faults", FAULTS, "--fault-seed", "42"));
        return server.uri("plain");
    }

    private static String documents() {
        StringBuilder feed = new StringBuilder();
        for (int i = 0; i < DOCUMENTS; i++)
            feed.append("{\"put\":\"id:ns:music::doc-").append(i).append("\",\"fields\":{\"artist\":\"artist ")
                .append(i).append("\",\"year\":").append(i).append("}}\n");
        return feed.toString();
    }

    @Test
    void sluiceFeed_through429sAnd503s_storesEveryDocumentOnce() throws Exception {
        URI url = start();
        Path file = directory.resolve("docs.jsonl");
        Files.writeString(file, documents());
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int exit = io.sluice.feed.cli.Main.run(new String[] { "feed", "--endpoint", url.toString(), "--file", file.toString() },
                                               new ByteArrayInputStream(new byte[0]),
                                               new PrintStream(out, true, StandardCharsets.UTF_8),
                                               new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, exit, err.toString(StandardCharsets.UTF_8));
        assertStoredOnce(url);
    }

    @Test
    void vespaFeedClient_through429sAnd503s_storesEveryDocumentOnce() throws Exception {
        URI url = start();
        List<?> outcome = VespaFeedClientCompatibilityTest.feedWithVespaClient(url, null, documents());
        assertEquals(List.of(String.valueOf(DOCUMENTS)), outcome);
        assertStoredOnce(url);
    }

    private void assertStoredOnce(URI url) throws Exception {
        Map<String, Object> faults = JsonTree.object(get(url, "/sluice/v1/faults"));
        Map<?, ?> injected = (Map<?, ?>) faults.get("injected");
        // The feeds retried through faults (the share itself is checked over 10,000 requests in FaultInjectionHandlerTest).
        assertEquals(true, ((Number) injected.get("429")).longValue() > 0 && ((Number) injected.get("503")).longValue() > 0,
                     faults.toString());

        Map<String, Object> expected = new HashMap<>();
        for (int i = 0; i < DOCUMENTS; i++)
            expected.put("id:ns:music::doc-" + i, Map.of("artist", "artist " + i, "year", (long) i));
        Map<String, Object> visited = new HashMap<>();
        List<String> duplicates = new ArrayList<>();
        String continuation = null;
        // Faults apply to the visit too; stop injecting them before checking what was stored.
        send(url, "DELETE", "/sluice/v1/faults");
        do {
            Map<String, Object> page = JsonTree.object(get(url, "/document/v1/?cluster=music&wantedDocumentCount=1000"
                    + (continuation == null ? "" : "&continuation=" + java.net.URLEncoder.encode(continuation, StandardCharsets.UTF_8))));
            for (Object document : (List<?>) page.get("documents")) {
                Map<?, ?> fields = (Map<?, ?>) document;
                if (visited.put((String) fields.get("id"), fields.get("fields")) != null)
                    duplicates.add((String) fields.get("id"));
            }
            continuation = (String) page.get("continuation");
        } while (continuation != null);
        assertEquals(List.of(), duplicates);
        assertEquals(expected, visited);
        assertEquals(DOCUMENTS, succeededPuts(url));
    }

    /** The handler's count of successful puts, from /state/v1/metrics. */
    private static long succeededPuts(URI url) throws Exception {
        Map<String, Object> metrics = JsonTree.object(get(url, "/state/v1/metrics"));
        long puts = 0;
        for (Object value : (List<?>) ((Map<?, ?>) metrics.get("metrics")).get("values")) {
            Map<?, ?> metric = (Map<?, ?>) value;
            if (metric.get("name").equals("httpapi_num_puts"))
                puts += ((Number) ((Map<?, ?>) metric.get("values")).get("count")).longValue();
        }
        return puts;
    }

    private static String get(URI url, String path) throws Exception {
        return send(url, "GET", path);
    }

    private static String send(URI url, String method, String path) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(url.resolve(path)).method(method, HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
        return response.body();
    }

}
