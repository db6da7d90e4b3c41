package io.sluice.container.document;

import io.sluice.config.DocumentApiConfig;
import io.sluice.container.JsonErrorHandler;
import io.sluice.container.JsonTree;
import io.sluice.container.ManualClock;
import io.sluice.document.Document;
import io.sluice.document.DocumentId;
import io.sluice.document.DocumentTypes;
import io.sluice.content.BucketSpace;
import io.sluice.content.ContentBackend;
import io.sluice.content.OperationOptions;
import io.sluice.content.Outcome;
import io.sluice.content.memory.InMemoryContentBackend;
import io.sluice.document.json.DocumentJsonReader;
import org.eclipse.jetty.http.HttpTester;
import org.eclipse.jetty.http.UriCompliance;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.LocalConnector;
import org.eclipse.jetty.server.Server;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The handler with {@link BackendVisitRoutes} over two in-memory content clusters: {@code music} (types music and the
 * global artist) and {@code archive} (music), with a manual clock and scheduler, on an in-memory connector.
 */
final class VisitFixture implements AutoCloseable {

    static final Instant FAR_FUTURE = Instant.parse("2100-01-01T00:00:00Z");

    final ManualClock clock = HandlerFixture.newClock();
    final DelayedTasks scheduler = new DelayedTasks();
    final InMemoryContentBackend music = InMemoryContentBackend.builder().clock(clock).threads(1).build();
    final InMemoryContentBackend archive = InMemoryContentBackend.builder().clock(clock).threads(1).build();
    final DocumentTypes types = HandlerFixture.types();
    final DocumentV1ApiHandler handler;
    private final Server server = new Server();
    private final LocalConnector connector = new LocalConnector(server);

    private VisitFixture(Function<ContentBackend, ContentBackend> wrapMusic, boolean oneCluster, DocumentApiConfig config) throws Exception {
        List<ContentClusters.Cluster> clusters = new ArrayList<>();
        clusters.add(new ContentClusters.Cluster("music", wrapMusic.apply(music), List.of("music", "artist"), List.of("artist")));
        if ( ! oneCluster)
            clusters.add(new ContentClusters.Cluster("archive", archive, List.of("music"), List.of()));
        handler = DocumentV1ApiHandler.builder(ContentClusters.of(types, clusters), config)
                                      .clock(clock).scheduler(scheduler).build();
        connector.getConnectionFactory(HttpConnectionFactory.class).getHttpConfiguration().setUriCompliance(UriCompliance.LEGACY);
        server.addConnector(connector);
        server.setErrorHandler(new JsonErrorHandler());
        server.setHandler(handler);
        server.start();
    }

    /** Clusters {@code music} and {@code archive}. */
    static VisitFixture create() throws Exception {
        return new VisitFixture(backend -> backend, false, DocumentApiConfig.defaults());
    }

    /** Clusters {@code music} and {@code archive}, skipping unknown fields in update bodies. */
    static VisitFixture lenient() throws Exception {
        DocumentApiConfig defaults = DocumentApiConfig.defaults();
        return new VisitFixture(backend -> backend, false,
                                new DocumentApiConfig(defaults.maxDocumentSize(), defaults.timeout(), true,
                                                      defaults.maxPendingDocs(), defaults.maxPendingBytes()));
    }

    /** Only the {@code music} cluster. */
    static VisitFixture oneCluster() throws Exception {
        return new VisitFixture(backend -> backend, true, DocumentApiConfig.defaults());
    }

    /** Only the {@code music} cluster, over {@code wrap} of the in-memory backend, with room for one pending operation. */
    static VisitFixture oneSlot(Function<ContentBackend, ContentBackend> wrap) throws Exception {
        DocumentApiConfig defaults = DocumentApiConfig.defaults();
        return new VisitFixture(wrap, true, new DocumentApiConfig(defaults.maxDocumentSize(), defaults.timeout(), false, 1,
                                                                  defaults.maxPendingBytes()));
    }

    /** Only the {@code music} cluster, whose backend is {@code wrap} applied to the in-memory one. */
    static VisitFixture oneCluster(Function<ContentBackend, ContentBackend> wrap) throws Exception {
        return new VisitFixture(wrap, true, DocumentApiConfig.defaults());
    }

    /** Writes a document with the given fields JSON to {@code backend}, in its type's bucket space. */
    Outcome put(ContentBackend backend, String id, String fields) {
        DocumentId documentId = DocumentId.of(id);
        Document document = DocumentJsonReader.strict(types).readPut(documentId, ("{\"fields\":" + fields + "}").getBytes(StandardCharsets.UTF_8))
                                              .document();
        return backend.put(document, options(documentId)).join();
    }

    Outcome put(String id, String fields) {
        return put(music, id, fields);
    }

    Outcome remove(String id) {
        DocumentId documentId = DocumentId.of(id);
        return music.remove(documentId, options(documentId)).join();
    }

    /** Puts {@code count} music documents {@code id:ns:music::0} and on, with {@code year} = 2000 + i. */
    List<String> putMusic(int count) {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String id = "id:ns:music::" + i;
            put(id, "{\"title\":\"Title " + i + "\",\"year\":" + (2000 + i) + "}");
            ids.add(id);
        }
        return ids;
    }

    /** The stored document, or empty. */
    java.util.Optional<Document> get(ContentBackend backend, String id) {
        DocumentId documentId = DocumentId.of(id);
        return backend.get(documentId, io.sluice.document.FieldSet.all(), options(documentId)).join().document();
    }

    private static OperationOptions options(DocumentId id) {
        return OperationOptions.until(FAR_FUTURE).withBucketSpace(id.documentType().equals("artist") ? BucketSpace.GLOBAL
                                                                                                     : BucketSpace.DEFAULT);
    }

    void advance(Duration duration) {
        clock.advance(duration);
    }

    HttpTester.Response send(String method, String pathAndQuery, String body, String... headers) throws Exception {
        byte[] bytes = body == null ? null : body.getBytes(StandardCharsets.UTF_8);
        return HttpTester.parseResponse(connector.getResponse(ByteBuffer.wrap(HandlerFixture.raw(method, pathAndQuery, bytes, headers))));
    }

    HttpTester.Response get(String pathAndQuery, String... headers) throws Exception {
        return send("GET", pathAndQuery, null, headers);
    }

    /** Starts a request whose response the test reads, or abandons, later. */
    LocalConnector.LocalEndPoint start(String method, String pathAndQuery, String... headers) {
        return connector.executeRequest(new String(HandlerFixture.raw(method, pathAndQuery, null, headers), StandardCharsets.ISO_8859_1));
    }

    static Map<String, Object> json(HttpTester.Response response) {
        return JsonTree.object(response.getContent());
    }

    @Override
    public void close() {
        try {
            server.stop();
        }
        catch (Exception e) {
            throw new IllegalStateException("Stopping the server failed", e);
        }
        music.close();
        archive.close();
    }

}
