package io.sluice.http;

import io.sluice.config.ApplicationPackage;
import io.sluice.config.ApplicationPackageLoader;
import io.sluice.config.ConfigException;
import io.sluice.config.ContentCluster;
import io.sluice.container.JsonTree;
import io.sluice.container.document.ContentBackendFactory;
import io.sluice.content.ContentBackend;
import io.sluice.content.OperationOptions;
import io.sluice.content.Outcome;
import io.sluice.content.Visit;
import io.sluice.content.VisitSpec;
import io.sluice.document.Document;
import io.sluice.document.DocumentId;
import io.sluice.document.DocumentUpdate;
import io.sluice.document.FieldSet;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.client.StringRequestContent;
import org.eclipse.jetty.http.HttpMethod;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** How the process mounts /document/v1 from an application package (Main's wiring). */
class DocumentApiMountTest {

    @TempDir
    Path directory;

    private SluiceServer server;

    @AfterEach
    void stop() {
        if (server != null)
            server.stop();
    }

    private Path write(String containerBody, String engine) throws IOException {
        Files.createDirectories(directory.resolve("schemas"));
        Files.writeString(directory.resolve("schemas/music.sd"), DocumentServers.SCHEMA);
        Files.writeString(directory.resolve("services.xml"),
                          "<services version=\"1.0\">\n"
                          + "<container id=\"default\" version=\"1.0\"><http><server id=\"plain\" port=\"0\"/></http>" + containerBody + "</container>\n"
                          + "<content id=\"music\" version=\"1.0\"><min-redundancy>1</min-redundancy>"
                          + "<documents><document type=\"music\" mode=\"index\"/></documents>"
                          + "<engine>" + engine + "</engine>"
                          + "<nodes><node hostalias=\"node1\" distribution-key=\"0\"/></nodes></content>\n"
                          + "</services>\n");
        return directory;
    }

    private SluiceServer serve(Path app) {
        server = Main.serve(new LaunchOptions(app, OptionalInt.empty(), java.util.Optional.empty()));
        return server;
    }

    private ContentResponse send(String method, String path, String body) throws Exception {
        var client = new org.eclipse.jetty.client.HttpClient();
        client.start();
        try {
            var request = client.newRequest(server.uri("plain").resolve(path)).method(HttpMethod.fromString(method));
            if (body != null)
                request.body(new StringRequestContent("application/json", body));
            return request.send();
        }
        finally {
            client.stop();
        }
    }

    @Test
    void withDocumentApi_servesDocumentsAndListsHandler() throws Exception {
        serve(write("<document-api/>", "<memory/>"));
        assertEquals(200, send("POST", "/document/v1/ns/music/docid/a", "{\"fields\":{\"artist\":\"x\"}}").getStatus());
        assertEquals(Map.of("artist", "x"), JsonTree.object(send("GET", "/document/v1/ns/music/docid/a", null).getContentAsString()).get("fields"));
        List<?> handlers = (List<?>) JsonTree.object(send("GET", "/", null).getContentAsString()).get("handlers");
        assertTrue(handlers.stream().map(Map.class::cast)
                           .anyMatch(h -> ((String) h.get("class")).endsWith("DocumentV1ApiHandler")
                                          && ((List<?>) h.get("serverBindings")).contains("http://*/document/v1/*")),
                   handlers.toString());
    }

    @Test
    void withDocumentApi_reportsHandlerMetrics() throws Exception {
        serve(write("<document-api/>", "<memory/>"));
        send("DELETE", "/document/v1/ns/music/docid/a", null);
        String prometheus = send("GET", "/state/v1/metrics?format=prometheus", null).getContentAsString();
        assertTrue(prometheus.contains("httpapi_operations_count{operation=\"remove\",outcome=\"succeeded\",} 1 "), prometheus);
        assertTrue(prometheus.contains("httpapi_queued_operations_last{} 0"), prometheus);
    }

    @Test
    void withDocumentApi_reportsVespaMetricsAtTheNodeMetricsApis() throws Exception {
        serve(write("<document-api/>", "<memory/>"));
        assertEquals(200, send("POST", "/document/v1/ns/music/docid/a", "{\"fields\":{\"artist\":\"x\"}}").getStatus());
        assertEquals(200, send("DELETE", "/document/v1/ns/music/docid/a", null).getStatus());
        Map<String, Object> v2 = JsonTree.object(send("GET", "/metrics/v2/values", null).getContentAsString());
        Map<?, ?> service = (Map<?, ?>) ((List<?>) ((Map<?, ?>) ((List<?>) v2.get("nodes")).get(0)).get("services")).get(0);
        Map<String, Object> values = new java.util.HashMap<>();
        for (Object set : (List<?>) service.get("metrics"))
            ((Map<?, ?>) ((Map<?, ?>) set).get("values")).forEach((name, value) -> values.putIfAbsent((String) name, value));
        assertEquals(2L, values.get("httpapi_succeeded.count"), values.toString());
        assertEquals(1L, values.get("httpapi_num_puts.count"), values.toString());
        assertEquals(1L, values.get("httpapi_num_removes.count"), values.toString());
        for (String name : List.of("httpapi_pending.last", "serverNumOpenConnections.last", "mem.heap.used.last",
                                   "jdisc.http.jetty.threadpool.thread.busy.last", "jdisc.gc.count.last", "jdisc.http.latency.max"))
            assertTrue(values.containsKey(name), name + " in " + values.keySet());
        String prometheus = send("GET", "/prometheus/v1/values", null).getContentAsString();
        assertTrue(prometheus.contains("\nhttpapi_succeeded_count{applicationId="), prometheus);
    }

    @Test
    void withEmbeddedStore_reportsItsFiguresPerCluster() throws Exception {
        Path app = write("<document-api/>", "<embedded/>");
        server = Main.serve(new LaunchOptions(app, OptionalInt.empty(), java.util.Optional.of(directory.resolve("data"))));
        assertEquals(200, send("POST", "/document/v1/ns/music/docid/a", "{\"fields\":{\"artist\":\"x\"}}").getStatus());

        List<String> lines = send("GET", "/state/v1/metrics?format=prometheus", null).getContentAsString().lines().toList();

        assertTrue(lines.stream().anyMatch(line -> line.startsWith("content_documents_last{clusterId=\"music\",} 1 ")), lines.toString());
        for (String figure : List.of("stored_bytes", "wal_bytes", "memtable_bytes", "tombstones", "recovery_seconds"))
            assertTrue(lines.stream().anyMatch(line -> line.startsWith("content_" + figure + "_last{clusterId=\"music\",} ")),
                       figure + " in " + lines);
    }

    @Test
    void documentSelection_filtersPuts_andOneNamingAnUnknownFieldStopsStartUp() throws Exception {
        Path app = write("<document-api/>", "<memory/>");
        Path services = app.resolve("services.xml");
        Files.writeString(services, Files.readString(services).replace("<documents>",
                "<documents garbage-collection=\"true\" selection=\"music.year &gt; 2000\">"));
        serve(app);
        ContentResponse ignored = send("POST", "/document/v1/ns/music/docid/a", "{\"fields\":{\"year\":1990}}");
        assertEquals(200, ignored.getStatus());
        assertEquals("true", ignored.getHeaders().get("X-Vespa-Ignored-Operation"));
        assertEquals(404, send("GET", "/document/v1/ns/music/docid/a", null).getStatus());
        assertTrue(send("GET", "/state/v1/metrics?format=prometheus", null).getContentAsString()
                           .contains("content_gc_sweeps_count{clusterId=\"music\",} 0 "));
        server.stop();
        server = null;
        Files.writeString(services, Files.readString(services).replace("music.year &gt; 2000", "music.yaer &gt; 2000"));
        ConfigException e = assertThrows(ConfigException.class, () -> serve(app));
        assertTrue(e.getMessage().startsWith("<content id='music'> has an invalid document selection: Unexpected "
                                             + "'music.yaer'"), e.getMessage());
    }

    @Test
    void withoutDocumentApi_answers404NotConfigured() throws Exception {
        serve(write("", "<memory/>"));
        ContentResponse response = send("GET", "/document/v1/ns/music/docid/a", null);
        assertEquals(404, response.getStatus());
        assertEquals("NOT_FOUND", JsonTree.object(response.getContentAsString()).get("error-code"));
    }

    @Test
    void engineWithoutFactory_failsAtStartNamingIt() throws Exception {
        Path app = write("<document-api/>", "<cassandra/>");
        ApplicationPackage application = ApplicationPackageLoader.load(app);
        ConfigException e = assertThrows(ConfigException.class,
                                         () -> io.sluice.container.document.ContentClusters.load(application, Map.of(ContentCluster.Engine.MEMORY, Engines.memory())));
        assertEquals("<content id='music'> uses engine cassandra, which this server does not provide; available: [memory]", e.getMessage());
    }

    @Test
    void importedFieldInTheSelectionOfAClusterWhoseEngineCannotReadParents_failsAtStart() throws Exception {
        Path app = write("<document-api/>", "<cassandra/>");
        Files.writeString(app.resolve("schemas/artist.sd"), "schema artist { document artist { field name type string {} } }\n");
        Files.writeString(app.resolve("schemas/music.sd"), "schema music { document music {\n"
                                                         + "  field by type reference<artist> {} }\n"
                                                         + "  import field by.name as artist_name {}\n}\n");
        Path services = app.resolve("services.xml");
        Files.writeString(services, Files.readString(services).replace(
                "<documents><document type=\"music\" mode=\"index\"/>",
                "<documents garbage-collection=\"true\" selection=\"music.artist_name != &quot;x&quot;\">"
                + "<document type=\"music\" mode=\"index\"/><document type=\"artist\" mode=\"index\" global=\"true\"/>"));
        ApplicationPackage application = ApplicationPackageLoader.load(app);
        List<ContentBackend> created = new ArrayList<>();
        ContentBackendFactory parentless = (cluster, pkg, types) -> { // an engine that does not read parents
            ContentBackend memory = Engines.memory().create(cluster, pkg, types);
            created.add(memory);
            return new ContentBackend() {
                @Override public CompletableFuture<Outcome> put(Document d, OperationOptions o) { return memory.put(d, o); }
                @Override public CompletableFuture<Outcome> get(DocumentId i, FieldSet f, OperationOptions o) { return memory.get(i, f, o); }
                @Override public CompletableFuture<Outcome> update(DocumentUpdate u, OperationOptions o) { return memory.update(u, o); }
                @Override public CompletableFuture<Outcome> remove(DocumentId i, OperationOptions o) { return memory.remove(i, o); }
                @Override public Visit visit(VisitSpec spec) { return memory.visit(spec); }
                @Override public void close() { memory.close(); }
            };
        };
        ConfigException e = assertThrows(ConfigException.class, () -> io.sluice.container.document.ContentClusters.load(
                application, Map.of(ContentCluster.Engine.CASSANDRA, parentless)));
        assertEquals("<content id='music'> has an invalid document selection: Unexpected 'music.artist_name' at position"
                     + " 1 in selection '(music.artist_name != \"x\")': expected a field of document type 'music' (content"
                     + " cluster 'music' does not read parent documents in selections: its engine does not support"
                     + " imported fields)", e.getMessage());
        assertEquals(1, created.size());
        assertThrows(RuntimeException.class, () -> created.get(0).visit(io.sluice.content.VisitSpec.builder().build())
                                                              .next(1).join(), "the backend was closed");
    }

    @Test
    void contentClusterWithUnknownType_failsAtStart() throws Exception {
        Path app = write("<document-api/>", "<memory/>");
        Files.writeString(app.resolve("schemas/music.sd"), "schema other {\n  document other {\n  }\n}\n");
        ApplicationPackage application = ApplicationPackageLoader.load(app);
        ConfigException e = assertThrows(ConfigException.class,
                                         () -> io.sluice.container.document.ContentClusters.load(application, Map.of(ContentCluster.Engine.MEMORY, Engines.memory())));
        assertEquals("<content id='music'> lists document type 'music', but no schema defines it; schemas define [other]", e.getMessage());
    }

}
