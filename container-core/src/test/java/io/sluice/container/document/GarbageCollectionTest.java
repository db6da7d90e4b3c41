package io.sluice.container.document;

import io.sluice.config.DocumentApiConfig;
import io.sluice.container.JsonErrorHandler;
import io.sluice.container.ManualClock;
import io.sluice.container.Metric;
import io.sluice.content.BucketSpace;
import io.sluice.content.ContentBackend;
import io.sluice.content.OperationOptions;
import io.sluice.content.Outcome;
import io.sluice.content.memory.InMemoryContentBackend;
import io.sluice.document.Document;
import io.sluice.document.DocumentId;
import io.sluice.document.DocumentTypes;
import io.sluice.document.FieldSet;
import io.sluice.document.json.DocumentJsonReader;
import io.sluice.document.select.DocumentSelection;
import org.eclipse.jetty.http.HttpTester;
import org.eclipse.jetty.server.LocalConnector;
import org.eclipse.jetty.server.Server;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A content cluster's document selection: writes it does not take are ignored, and garbage collection removes the rest. */
class GarbageCollectionTest {

    private static final Instant FAR_FUTURE = Instant.parse("2100-01-01T00:00:00Z");
    private static final Duration INTERVAL = Duration.ofMinutes(10);

    private final ManualClock clock = HandlerFixture.newClock();
    private final DelayedTasks scheduler = new DelayedTasks();
    private final DocumentTypes types = HandlerFixture.types();
    private final InMemoryContentBackend memory = InMemoryContentBackend.builder().clock(clock).threads(1).build();
    private final Server server = new Server();
    private final LocalConnector connector = new LocalConnector(server);
    private DocumentV1ApiHandler handler;
    private ContentClusters.Cluster cluster;

    /** Cluster music keeps music documents after 2000 over {@code backend}, collecting garbage every 10 minutes. */
    private void start(ContentBackend backend) throws Exception {
        start(backend, "(music and (music.year > 2000)) or artist");
    }

    private void start(ContentBackend backend, String selection) throws Exception {
        cluster = new ContentClusters.Cluster("music", backend, List.of("music", "artist"), List.of("artist"),
                                              Optional.of(DocumentSelection.parse(selection)), Optional.of(INTERVAL));
        handler = DocumentV1ApiHandler.builder(ContentClusters.of(types, List.of(cluster)), DocumentApiConfig.defaults())
                                      .clock(clock).scheduler(scheduler).build();
        server.addConnector(connector);
        server.setErrorHandler(new JsonErrorHandler());
        server.setHandler(handler);
        server.start();
    }

    @AfterEach
    void stop() throws Exception {
        server.stop();
    }

    private HttpTester.Response send(String method, String path, String body) throws Exception {
        HttpTester.Request request = HttpTester.newRequest();
        request.setMethod(method);
        request.setURI(path);
        request.setHeader("Host", "localhost");
        if (body != null) {
            request.setHeader("Content-Type", "application/json");
            request.setContent(body);
        }
        ByteBuffer raw = connector.getResponse(request.generate(), 30, TimeUnit.SECONDS);
        return HttpTester.parseResponse(raw);
    }

    private void put(String id, String fields) {
        assertTrue(write(id, fields).join().isSuccess());
    }

    private CompletableFuture<Outcome> write(String id, String fields) {
        DocumentId documentId = DocumentId.of(id);
        Document document = DocumentJsonReader.strict(types)
                                              .readPut(documentId, ("{\"fields\":" + fields + "}").getBytes(StandardCharsets.UTF_8))
                                              .document();
        return memory.put(document, options(documentId));
    }

    private boolean stored(String id) {
        DocumentId documentId = DocumentId.of(id);
        return memory.get(documentId, FieldSet.all(), options(documentId)).join().document().isPresent();
    }

    private static OperationOptions options(DocumentId id) {
        return OperationOptions.until(FAR_FUTURE).withBucketSpace(id.documentType().equals("artist") ? BucketSpace.GLOBAL
                                                                                                     : BucketSpace.DEFAULT);
    }

    @Test
    void putOutsideTheSelection_isIgnoredWithVespasHeader() throws Exception {
        start(memory);
        HttpTester.Response ignored = send("POST", "/document/v1/ns/music/docid/old", "{\"fields\":{\"year\":1990}}");
        assertEquals(200, ignored.getStatus());
        assertEquals("true", ignored.get("X-Vespa-Ignored-Operation"));
        assertTrue(!stored("id:ns:music::old"));
        HttpTester.Response kept = send("POST", "/document/v1/ns/music/docid/new", "{\"fields\":{\"year\":2010}}");
        assertEquals(200, kept.getStatus());
        assertEquals(null, kept.get("X-Vespa-Ignored-Operation"));
        assertTrue(stored("id:ns:music::new"));
        HttpTester.Response noYear = send("POST", "/document/v1/ns/music/docid/none", "{\"fields\":{\"title\":\"x\"}}");
        assertEquals("true", noYear.get("X-Vespa-Ignored-Operation")); // undecidable is not kept
        assertEquals(200, send("PUT", "/document/v1/ns/music/docid/new", "{\"fields\":{\"year\":{\"assign\":1990}}}").getStatus());
        assertTrue(stored("id:ns:music::new")); // an update goes through: the selection is on fields it cannot see
    }

    @Test
    void sweep_removesWhatTheSelectionDoesNotKeep_andCountsIt() throws Exception {
        start(memory);
        put("id:ns:music::1990", "{\"year\":1990}");
        put("id:ns:music::2010", "{\"year\":2010}");
        put("id:ns:music::none", "{\"title\":\"no year\"}");
        put("id:ns:artist::a", "{\"name\":\"kept, as artists are\"}");
        put("id:ns:music::big", "{\"year\":1991,\"title\":\"" + "x".repeat(3 << 20) + "\"}"); // above a batch's bytes
        GarbageCollector collector = new GarbageCollector(handler.context().clusters(), scheduler, clock);
        assertEquals(3L, collector.sweep(cluster).get(30, TimeUnit.SECONDS));
        assertTrue(!stored("id:ns:music::big"));
        assertTrue(!stored("id:ns:music::1990"));
        assertTrue(!stored("id:ns:music::none"));
        assertTrue(stored("id:ns:music::2010"));
        assertTrue(stored("id:ns:artist::a"));
        assertEquals(0L, collector.sweep(cluster).get(30, TimeUnit.SECONDS));
        assertEquals(3L, counter(collector, "content_gc_removed"));
        assertEquals(2L, counter(collector, "content_gc_sweeps"));
    }

    @Test
    void sweep_readsImportedFieldsFromParents_whileWritesSeeThemAsNull() throws Exception {
        // Vespa's idiom: a write is routed without parents (the imported field is null), the sweep reads them
        start(memory, "(music and (music.artist_name == null or music.artist_name != \"Banned\")) or artist");
        put("id:ns:artist::banned", "{\"name\":\"Banned\"}");
        put("id:ns:artist::fine", "{\"name\":\"Fine\"}");
        HttpTester.Response fed = send("POST", "/document/v1/ns/music/docid/bad",
                                       "{\"fields\":{\"by\":\"id:ns:artist::banned\"}}");
        assertEquals(200, fed.getStatus());
        assertEquals(null, fed.get("X-Vespa-Ignored-Operation"));
        put("id:ns:music::good", "{\"by\":\"id:ns:artist::fine\"}");
        put("id:ns:music::orphan", "{\"by\":\"id:ns:artist::gone\"}");
        GarbageCollector collector = new GarbageCollector(handler.context().clusters(), scheduler, clock);
        assertEquals(1L, collector.sweep(cluster).get(30, TimeUnit.SECONDS));
        assertTrue(!stored("id:ns:music::bad"));
        assertTrue(stored("id:ns:music::good"));
        assertTrue(stored("id:ns:music::orphan"));
        assertTrue(stored("id:ns:artist::banned"));
    }

    @Test
    void sweep_keepsADocumentWrittenAgainSinceItWasVisited() throws Exception {
        ContentBackend rewriting = new ForwardingBackend(memory) {
            @Override
            public CompletableFuture<Outcome> remove(DocumentId id, OperationOptions options) {
                // a client feeds a fresh version just before the remove
                return write(id.toString(), "{\"year\":2020}").thenCompose(__ -> memory.remove(id, options));
            }
        };
        start(rewriting);
        put("id:ns:music::a", "{\"year\":1990}");
        GarbageCollector collector = new GarbageCollector(handler.context().clusters(), scheduler, clock);
        assertEquals(0L, collector.sweep(cluster).get(30, TimeUnit.SECONDS));
        assertTrue(stored("id:ns:music::a"));
    }

    @Test
    void sweeps_runAfterAMinuteThenEveryInterval_untilStopped() throws Exception {
        start(memory);
        put("id:ns:music::1990", "{\"year\":1990}");
        assertTrue(scheduler.pending().contains(GarbageCollector.FIRST_SWEEP_DELAY), scheduler.pending().toString());
        assertEquals(1, scheduler.fire(delay -> delay.equals(GarbageCollector.FIRST_SWEEP_DELAY)));
        for (int i = 0; i < 3000 && stored("id:ns:music::1990"); i++)
            Thread.sleep(1); // the sweep runs on the backend's thread; nothing about timing is asserted
        assertTrue(!stored("id:ns:music::1990"));
        for (int i = 0; i < 3000 && !scheduler.pending().contains(INTERVAL); i++)
            Thread.sleep(1);
        assertTrue(scheduler.pending().contains(INTERVAL), scheduler.pending().toString());
        server.stop();
        assertEquals(0, scheduler.fire(delay -> delay.equals(INTERVAL)));
    }

    /** Passes every call to another backend; tests override what they change. */
    private static class ForwardingBackend implements ContentBackend {
        private final ContentBackend delegate;
        ForwardingBackend(ContentBackend delegate) { this.delegate = delegate; }
        @Override public CompletableFuture<Outcome> put(Document document, OperationOptions options) { return delegate.put(document, options); }
        @Override public CompletableFuture<Outcome> get(DocumentId id, FieldSet fields, OperationOptions options) { return delegate.get(id, fields, options); }
        @Override public CompletableFuture<Outcome> update(io.sluice.document.DocumentUpdate update, OperationOptions options) { return delegate.update(update, options); }
        @Override public CompletableFuture<Outcome> remove(DocumentId id, OperationOptions options) { return delegate.remove(id, options); }
        @Override public io.sluice.content.Visit visit(io.sluice.content.VisitSpec spec) { return delegate.visit(spec); }
        @Override public void close() { delegate.close(); }
    }

    private static long counter(GarbageCollector collector, String name) {
        return collector.metrics().stream().filter(metric -> metric.name().equals(name)).map(Metric::values)
                        .mapToLong(values -> values.get("count").longValue()).sum();
    }

}
