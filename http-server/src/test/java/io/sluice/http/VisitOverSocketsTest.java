package io.sluice.http;

import io.sluice.config.AccessLogConfig;
import io.sluice.config.DocumentApiConfig;
import io.sluice.container.HandlerRegistration;
import io.sluice.container.JsonTree;
import io.sluice.container.document.ContentClusters;
import io.sluice.container.document.DocumentV1ApiHandler;
import io.sluice.document.DocumentId;
import io.sluice.document.DocumentTypes;
import io.sluice.content.OperationOptions;
import io.sluice.content.memory.InMemoryContentBackend;
import io.sluice.document.json.DocumentJsonReader;
import io.sluice.document.schema.SchemaParser;
import org.eclipse.jetty.client.InputStreamResponseListener;
import org.eclipse.jetty.client.Response;
import org.eclipse.jetty.http.HttpHeader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.InputStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Visits through the whole server over every transport: streamed JSON and JSON lines read as they arrive, and paging. */
class VisitOverSocketsTest {

    private static final String SCHEMA = "schema music {\n  document music {\n"
                                         + "    field title type string { indexing: summary }\n"
                                         + "    field year type int { indexing: summary }\n  }\n}\n";
    private static final int DOCUMENTS = 1000;

    @TempDir
    static Path certificates;

    static TestPki pki;

    private ServerFixture fixture;
    private final Set<String> ids = new HashSet<>();

    @BeforeAll
    static void createPki() {
        pki = TestPki.create(certificates);
    }

    @AfterEach
    void stop() {
        if (fixture != null)
            fixture.close();
    }

    private ServerFixture start() {
        DocumentTypes types = SchemaParser.parse(Map.of("music.sd", SCHEMA));
        InMemoryContentBackend backend = InMemoryContentBackend.builder().threads(1).build();
        DocumentJsonReader reader = DocumentJsonReader.strict(types);
        String title = "x".repeat(300);
        for (int i = 0; i < DOCUMENTS; i++) {
            DocumentId id = DocumentId.of("id:ns:music::" + i);
            String fields = "{\"fields\":{\"title\":\"" + title + i + "\",\"year\":" + i + "}}";
            backend.put(reader.readPut(id, fields.getBytes(StandardCharsets.UTF_8)).document(),
                        OperationOptions.until(Instant.now().plusSeconds(60))).join();
            ids.add(id.toString());
        }
        ContentClusters clusters = ContentClusters.of(types, List.of(new ContentClusters.Cluster("music", backend, List.of("music"), List.of())));
        DocumentV1ApiHandler handler = DocumentV1ApiHandler.builder(clusters, DocumentApiConfig.defaults()).build();
        return fixture = ServerFixture.start(pki, ServerFixture.cluster(pki, List.of(), AccessLogConfig.disabled()),
                                             HandlerRegistration.of("document-v1", handler, DocumentV1ApiHandler.BINDING));
    }

    /** Reads the body through a stream, so the client takes the bytes only as fast as the test reads them. */
    private static String streamed(ServerFixture fixture, Transport transport, String pathAndQuery, String accept) throws Exception {
        InputStreamResponseListener listener = new InputStreamResponseListener();
        fixture.request(transport, pathAndQuery).headers(headers -> headers.put(HttpHeader.ACCEPT, accept)).send(listener);
        Response response = listener.get(30, TimeUnit.SECONDS);
        assertEquals(200, response.getStatus());
        try (InputStream body = listener.getInputStream()) {
            return new String(body.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @SuppressWarnings("unchecked")
    private static List<String> documentIds(Map<String, Object> page) {
        List<String> ids = new ArrayList<>();
        for (Map<String, Object> document : (List<Map<String, Object>>) page.get("documents"))
            ids.add((String) document.get("id"));
        assertEquals((long) ids.size(), page.get("documentCount"));
        return ids;
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void streamedJson_deliversEveryDocumentOnce(Transport transport) throws Exception {
        ServerFixture fixture = start();
        String body = streamed(fixture, transport, "/document/v1/?cluster=music&stream=true", "application/json");
        List<String> visited = documentIds(JsonTree.object(body));
        assertEquals(DOCUMENTS, visited.size());
        assertEquals(ids, Set.copyOf(visited));
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void streamedJsonLines_deliversEveryDocumentOnceAndEndsFinished(Transport transport) throws Exception {
        ServerFixture fixture = start();
        String body = streamed(fixture, transport, "/document/v1/?cluster=music&stream=true", "application/jsonl");
        List<String> visited = new ArrayList<>();
        Object last = null;
        for (String line : body.split("\n")) {
            Map<String, Object> object = JsonTree.object(line);
            if (object.containsKey("put"))
                visited.add((String) object.get("put"));
            last = object;
        }
        assertEquals(DOCUMENTS, visited.size());
        assertEquals(ids, Set.copyOf(visited));
        assertEquals(Map.of("continuation", Map.of("percentFinished", 100.0)), last);
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void pages_followedToTheEnd_deliverEveryDocumentOnce(Transport transport) throws Exception {
        ServerFixture fixture = start();
        List<String> visited = new ArrayList<>();
        String continuation = null;
        do {
            String query = "/document/v1/?cluster=music&wantedDocumentCount=400"
                           + (continuation == null ? "" : "&continuation=" + URLEncoder.encode(continuation, StandardCharsets.UTF_8));
            var response = fixture.request(transport, query).send();
            assertEquals(200, response.getStatus(), response.getContentAsString());
            Map<String, Object> page = JsonTree.object(response.getContentAsString());
            visited.addAll(documentIds(page));
            continuation = (String) page.get("continuation");
        } while (continuation != null);
        assertEquals(DOCUMENTS, visited.size());
        assertEquals(ids, Set.copyOf(visited));
    }

}
