package io.sluice.content.memory;

import io.sluice.content.ContentStatistics;
import io.sluice.content.ManualClock;
import io.sluice.content.OperationOptions;
import io.sluice.content.Outcome;
import io.sluice.content.Outcome.Status;
import io.sluice.document.Document;
import io.sluice.document.DocumentId;
import io.sluice.document.DocumentType;
import io.sluice.document.FieldSet;
import io.sluice.document.IntValue;
import io.sluice.document.PrimitiveType;
import io.sluice.document.TestUpdates;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Operations on the callers' threads (no executor given): one document's read-modify-writes from many threads. */
class InMemoryContentBackendThreadsTest {

    private static final DocumentType COUNTER = DocumentType.builder("counter").field("count", PrimitiveType.INT).build();
    private static final int THREADS = 4;
    private static final int INCREMENTS = 2_000;

    private final ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));

    @Test
    void laterVersions_keepTheFirstVersionsIdObject() {
        InMemoryContentBackend backend = InMemoryContentBackend.builder().clock(clock).build();
        OperationOptions options = OperationOptions.until(clock.instant().plusSeconds(60));
        DocumentId first = DocumentId.of("id:ns:counter::one");
        DocumentId second = DocumentId.of("id:ns:counter::one");
        backend.put(Document.builder(COUNTER, first).set("count", new IntValue(1)).build(), options).join();
        backend.put(Document.builder(COUNTER, second).set("count", new IntValue(2)).build(), options).join();
        Document stored = backend.get(second, FieldSet.all(), options).join().document().orElseThrow();
        assertEquals(new IntValue(2), stored.value("count").orElseThrow());
        assertTrue(stored.id() == first, "the stored version holds the first id object");
    }

    @Test
    void increments_fromManyThreads_onOneDocument_areNoneLost_andEachDoneWhenItReturns() throws Exception {
        InMemoryContentBackend backend = InMemoryContentBackend.builder().clock(clock).build();
        OperationOptions options = OperationOptions.until(clock.instant().plusSeconds(60));
        List<DocumentId> ids = List.of(DocumentId.of("id:ns:counter::shared"), DocumentId.of("id:ns:counter::other"));
        for (DocumentId id : ids)
            assertEquals(Status.SUCCESS, backend.put(Document.builder(COUNTER, id).set("count", new IntValue(0)).build(),
                                                     options).join().status());

        CyclicBarrier start = new CyclicBarrier(THREADS);
        List<Throwable> failures = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            DocumentId id = ids.get(t < THREADS - 1 ? 0 : 1); // three threads on "shared", one on "other"
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                    for (int i = 0; i < INCREMENTS; i++) {
                        CompletableFuture<Outcome> outcome = backend.update(TestUpdates.increment(COUNTER, id, "count", 1), options);
                        assertTrue(outcome.isDone(), "done when update returns");
                        assertEquals(Status.SUCCESS, outcome.join().status());
                    }
                }
                catch (Throwable e) {
                    synchronized (failures) { failures.add(e); }
                }
            });
            threads.add(thread);
            thread.start();
        }
        for (Thread thread : threads)
            thread.join();
        assertEquals(List.of(), failures);

        assertEquals(new IntValue(3 * INCREMENTS), count(backend, ids.get(0), options));
        assertEquals(new IntValue(INCREMENTS), count(backend, ids.get(1), options));
        assertEquals(0, backend.statistics().get(ContentStatistics.PENDING_OPERATIONS).intValue());
        backend.close();
    }

    private static Object count(InMemoryContentBackend backend, DocumentId id, OperationOptions options) {
        return backend.get(id, FieldSet.document(), options).join().document().orElseThrow().value("count").orElseThrow();
    }

}
