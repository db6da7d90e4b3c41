package io.sluice.http;

import io.sluice.config.DocumentApiConfig;
import io.sluice.container.document.ContentClusters;
import io.sluice.container.document.DocumentV1ApiHandler;
import io.sluice.container.document.HeldBackend;
import io.sluice.content.Outcome;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.client.Result;
import org.eclipse.jetty.http.HttpMethod;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Overload and cancellation over h2c: many concurrent streams on one connection against a backend that holds answers. */
class DocumentApiOverloadTest {

    @TempDir
    static Path certificates;

    static TestPki pki;

    private final HeldBackend backend = new HeldBackend();
    private DocumentV1ApiHandler handler;
    private ServerFixture fixture;

    @BeforeAll
    static void createPki() {
        pki = TestPki.create(certificates);
    }

    @AfterEach
    void stop() {
        if (fixture != null)
            fixture.close();
    }

    private void start(int maxPending) {
        var clusters = ContentClusters.of(DocumentServers.types(), List.of(new ContentClusters.Cluster("music", backend, List.of("music"), List.of())));
        var config = new DocumentApiConfig(DocumentApiConfig.MIB, Duration.ofSeconds(180), false, maxPending, 100 * DocumentApiConfig.MIB);
        handler = DocumentV1ApiHandler.builder(clusters, config).build();
        fixture = DocumentServers.start(pki, handler);
    }

    private CompletableFuture<Integer> delete(String id) {
        CompletableFuture<Integer> status = new CompletableFuture<>();
        fixture.request(Transport.H2C_PRIOR_KNOWLEDGE, "/document/v1/ns/music/docid/" + id).method(HttpMethod.DELETE)
               .send(result -> {
                   if (result.isFailed()) status.completeExceptionally(result.getFailure());
                   else status.complete(result.getResponse().getStatus());
               });
        return status;
    }

    @Test
    void tenTimesMoreConcurrentRequestsThanAdmitted_areRefusedWith429() throws Exception {
        start(5);
        List<CompletableFuture<Integer>> statuses = new ArrayList<>();
        for (int i = 0; i < 50; i++)
            statuses.add(delete("doc-" + i));
        List<HeldBackend.Call> calls = new ArrayList<>();
        for (int i = 0; i < 5; i++)
            calls.add(backend.next()); // five pending at the backend, 45 refused
        for (int i = 0; i < 3000 && statuses.stream().filter(CompletableFuture::isDone).count() < 45; i++)
            Thread.sleep(10); // waits for the server's answers; nothing about timing is asserted
        List<Integer> early = statuses.stream().filter(CompletableFuture::isDone).map(CompletableFuture::join).toList();
        assertEquals(java.util.Collections.nCopies(45, 429), early);
        assertEquals(5, handler.context().admission().pending());
        calls.forEach(call -> call.result().complete(Outcome.missing()));
        Map<Integer, Integer> counts = new TreeMap<>();
        for (CompletableFuture<Integer> status : statuses)
            counts.merge(status.get(30, TimeUnit.SECONDS), 1, Integer::sum);
        assertEquals(Map.of(200, 5, 429, 45), counts);
        assertEquals(0, handler.context().admission().pending());
    }

    @Test
    void abortedStream_endsItsRequest_andItsOperationStaysPendingUntilTheBackendAnswers() throws Exception {
        start(10);
        Request aborting = fixture.request(Transport.H2C_PRIOR_KNOWLEDGE, "/document/v1/ns/music/docid/b").method(HttpMethod.DELETE);
        CompletableFuture<Result> aborted = new CompletableFuture<>();
        aborting.send(aborted::complete);
        HeldBackend.Call call = backend.next();
        aborting.abort(new Exception("client gone"));
        assertTrue(aborted.get(30, TimeUnit.SECONDS).isFailed());
        assertEquals(1, handler.context().admission().pending());
        call.result().complete(Outcome.missing()); // answers nobody, and frees the slot
        HeldBackend.awaitPending(handler.context().admission(), 0);
        CompletableFuture<Integer> later = delete("c");
        HeldBackend.Call next = backend.next();
        assertEquals("id:ns:music::c", next.id().toString());
        next.result().complete(Outcome.missing());
        assertEquals(200, later.get(30, TimeUnit.SECONDS));
    }

}
