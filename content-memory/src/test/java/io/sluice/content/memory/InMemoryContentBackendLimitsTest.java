package io.sluice.content.memory;

import io.sluice.document.Document;
import io.sluice.document.DocumentId;
import io.sluice.document.DocumentType;
import io.sluice.document.DocumentTypes;
import io.sluice.document.IntValue;
import io.sluice.document.PrimitiveType;
import io.sluice.document.StringValue;
import io.sluice.document.TestUpdates;
import io.sluice.document.select.DocumentSelection;
import io.sluice.document.FieldSet;
import io.sluice.content.BucketSpace;
import io.sluice.content.ContentStatistics;
import io.sluice.content.ManualClock;
import io.sluice.content.OperationOptions;
import io.sluice.content.Outcome;
import io.sluice.content.Outcome.Status;
import io.sluice.content.Visit;
import io.sluice.content.VisitBatch;
import io.sluice.content.VisitEntry;
import io.sluice.content.VisitSpec;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What only the in-memory backend does: limits, overload, tombstone expiry, closing, its executor use. */
class InMemoryContentBackendLimitsTest {

    private static final DocumentType MUSIC = DocumentType.builder("music")
            .field("title", PrimitiveType.STRING)
            .field("year", PrimitiveType.INT)
            .build();
    /** A later version of the schema: updates made for it do not fit documents stored under the first. */
    private static final DocumentType MUSIC_WITH_GENRE = DocumentType.builder("music")
            .field("title", PrimitiveType.STRING)
            .field("year", PrimitiveType.INT)
            .field("genre", PrimitiveType.STRING)
            .build();

    private final ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final QueuedExecutor executor = new QueuedExecutor();

    private InMemoryContentBackend.Builder backend() {
        return InMemoryContentBackend.builder().clock(clock).executor(executor);
    }

    private OperationOptions options() {
        return OperationOptions.until(clock.instant().plusSeconds(60));
    }

    private static Document song(String user, String title) {
        return Document.builder(MUSIC, DocumentId.of("id:ns:music::" + user)).set("title", new StringValue(title))
                       .build();
    }

    private Outcome run(CompletableFuture<Outcome> operation) {
        executor.runAll();
        assertTrue(operation.isDone(), "operation did not complete");
        return operation.join();
    }

    @Test
    void put_beyondMaxDocuments_returnsInsufficientStorage() {
        try (InMemoryContentBackend store = backend().maxDocuments(2).build()) {
            run(store.put(song("a", "A"), options()));
            run(store.put(song("b", "B"), options()));
            Outcome third = run(store.put(song("c", "C"), options()));
            assertEquals(Status.INSUFFICIENT_STORAGE, third.status());
            assertTrue(third.message().contains("id:ns:music::c"), third.message());
        }
    }

    @Test
    void put_overwriteAtMaxDocuments_succeeds() {
        try (InMemoryContentBackend store = backend().maxDocuments(1).build()) {
            run(store.put(song("a", "A"), options()));
            assertEquals(Status.SUCCESS, run(store.put(song("a", "AA"), options())).status());
        }
    }

    @Test
    void remove_freesRoomForAnotherDocument() {
        try (InMemoryContentBackend store = backend().maxDocuments(1).build()) {
            run(store.put(song("a", "A"), options()));
            run(store.remove(song("a", "A").id(), options()));
            assertEquals(Status.SUCCESS, run(store.put(song("b", "B"), options())).status());
        }
    }

    @Test
    void put_beyondMaxBytes_returnsInsufficientStorageAndStoresNothing() {
        try (InMemoryContentBackend store = backend().maxBytes(1000).build()) {
            Outcome outcome = run(store.put(song("a", "x".repeat(1000)), options()));
            assertEquals(Status.INSUFFICIENT_STORAGE, outcome.status());
            assertEquals(Status.NOT_FOUND, run(store.get(song("a", "").id(), FieldSet.all(), options())).status());
        }
    }

    @Test
    void update_growingBeyondMaxBytes_returnsInsufficientStorage() {
        try (InMemoryContentBackend store = backend().maxBytes(1000).build()) {
            run(store.put(song("a", "small"), options()));
            Outcome outcome = run(store.update(TestUpdates.assign(MUSIC, song("a", "").id(), "title",
                                                                  new StringValue("y".repeat(1000))), options()));
            assertEquals(Status.INSUFFICIENT_STORAGE, outcome.status());
        }
    }

    @Test
    void statistics_reportLiveDocumentsTheirBytesAndPendingOperations() {
        try (InMemoryContentBackend store = backend().build();
             InMemoryContentBackend onlyB = backend().build()) {
            run(store.put(song("a", "A"), options()));
            run(store.put(song("b", "B"), options()));
            run(store.remove(song("a", "").id(), options()));
            run(onlyB.put(song("b", "B"), options()));
            long bytesOfB = onlyB.statistics().get(ContentStatistics.STORED_BYTES).longValue();

            assertTrue(bytesOfB > 0, "estimated bytes of one document: " + bytesOfB);
            assertEquals(Map.of(ContentStatistics.DOCUMENTS, 1L, ContentStatistics.STORED_BYTES, bytesOfB,
                                ContentStatistics.PENDING_OPERATIONS, 0),
                         store.statistics());
        }
    }

    @Test
    void get_ofTheWholeDocument_keepsItsFieldsJsonAndCountsTheirBytes() {
        try (InMemoryContentBackend store = backend().build()) {
            Document song = song("a", "A song");
            run(store.put(song, options()));
            long documentBytes = storedBytes(store);

            Outcome first = run(store.get(song.id(), FieldSet.all(), options()));
            String expected = "{\"title\":\"A song\"}";
            assertEquals(expected, first.fieldsJson().orElseThrow().toString());
            assertEquals(documentBytes + expected.length(), storedBytes(store));
            Outcome second = run(store.get(song.id(), FieldSet.all(), options()));
            assertEquals(expected, second.fieldsJson().orElseThrow().toString());
            assertEquals(documentBytes + expected.length(), storedBytes(store), "kept once");
            assertEquals(song, second.document().orElseThrow());

            run(store.put(song("a", "A song"), options()));
            assertEquals(documentBytes, storedBytes(store), "an overwrite drops the kept fields");
            run(store.get(song.id(), FieldSet.all(), options()));
            run(store.remove(song.id(), options()));
            assertEquals(0, storedBytes(store), "a remove frees the document and its fields");
        }
    }

    @Test
    void get_afterItsFieldsJsonIsKept_seesEveryLaterWrite() {
        try (InMemoryContentBackend store = backend().build()) {
            DocumentId id = song("a", "").id();
            run(store.put(song("a", "First"), options()));
            run(store.get(id, FieldSet.all(), options())); // keeps the JSON, under the lock
            assertEquals("{\"title\":\"First\"}", run(store.get(id, FieldSet.all(), options())).fieldsJson().orElseThrow().toString());
            run(store.put(song("a", "Second"), options()));
            for (int i = 0; i < 2; i++) // the first keeps the new entry's JSON, the second reads it without the lock
                assertEquals("{\"title\":\"Second\"}", run(store.get(id, FieldSet.all(), options())).fieldsJson().orElseThrow().toString());
            run(store.remove(id, options()));
            assertEquals(Status.NOT_FOUND, run(store.get(id, FieldSet.all(), options())).status());
        }
    }

    @Test
    void get_ofSomeFieldsOrWithACondition_keepsNothing() {
        try (InMemoryContentBackend store = backend().build()) {
            Document song = song("a", "A song");
            run(store.put(song, options()));
            long documentBytes = storedBytes(store);

            Outcome some = run(store.get(song.id(), FieldSet.parse("music:title", DocumentTypes.of(List.of(MUSIC))), options()));
            assertTrue(some.fieldsJson().isEmpty());
            Outcome conditional = run(store.get(song.id(), FieldSet.all(), options().withCondition(DocumentSelection.parse("music.title"))));
            assertTrue(conditional.fieldsJson().isEmpty());
            assertEquals(documentBytes, storedBytes(store));
        }
    }

    @Test
    void get_withoutRoomToKeepTheFields_answersFromTheDocument() {
        try (InMemoryContentBackend sizing = backend().build()) {
            run(sizing.put(song("a", "A song"), options()));
            long documentBytes = storedBytes(sizing);
            try (InMemoryContentBackend store = backend().maxBytes(documentBytes + 5).build()) {
                run(store.put(song("a", "A song"), options()));

                Outcome outcome = run(store.get(song("a", "").id(), FieldSet.all(), options()));
                assertEquals(Status.SUCCESS, outcome.status());
                assertTrue(outcome.fieldsJson().isEmpty());
                assertEquals(song("a", "A song"), outcome.document().orElseThrow());
                assertEquals(documentBytes, storedBytes(store));
            }
        }
    }

    private static long storedBytes(InMemoryContentBackend store) {
        return store.statistics().get(ContentStatistics.STORED_BYTES).longValue();
    }

    @Test
    void statistics_afterClose_areEmpty() {
        InMemoryContentBackend store = backend().build();
        run(store.put(song("a", "A"), options()));
        store.close();

        assertEquals(Map.of(), store.statistics());
    }

    @Test
    void operation_beyondMaxPending_returnsOverloadAtOnce() {
        try (InMemoryContentBackend store = backend().maxPendingOperations(2).build()) {
            CompletableFuture<Outcome> first = store.put(song("a", "A"), options());
            CompletableFuture<Outcome> second = store.put(song("b", "B"), options());
            CompletableFuture<Outcome> third = store.put(song("c", "C"), options());
            assertTrue(third.isDone());
            assertEquals(Status.OVERLOAD, third.join().status());
            executor.runAll();
            assertEquals(Status.SUCCESS, first.join().status());
            assertEquals(Status.SUCCESS, second.join().status());
        }
    }

    @Test
    void operation_afterPendingOnesComplete_isAcceptedAgain() {
        try (InMemoryContentBackend store = backend().maxPendingOperations(1).build()) {
            run(store.put(song("a", "A"), options()));
            assertEquals(Status.SUCCESS, run(store.put(song("b", "B"), options())).status());
        }
    }

    @Test
    void operation_deadlinePassedWhileQueued_returnsTimeout() {
        try (InMemoryContentBackend store = backend().build()) {
            CompletableFuture<Outcome> put = store.put(song("a", "A"), options());
            clock.advance(Duration.ofMinutes(2));
            assertEquals(Status.TIMEOUT, run(put).status());
        }
    }

    @Test
    void update_failingToApply_returnsErrorWithItsMessage() {
        try (InMemoryContentBackend store = backend().build()) {
            run(store.put(song("a", "A"), options()));
            Outcome outcome = run(store.update(TestUpdates.assign(MUSIC_WITH_GENRE, song("a", "").id(), "genre",
                                                                  new StringValue("jazz")), options()));
            assertEquals(Status.ERROR, outcome.status());
            assertEquals("Field 'genre' is not defined in document type 'music'", outcome.message());
        }
    }

    @Test
    void visit_tombstoneOlderThanRetention_isNotReturned() {
        try (InMemoryContentBackend store = backend().tombstoneRetention(Duration.ofHours(1)).build()) {
            run(store.put(song("a", "A"), options()));
            run(store.remove(song("a", "A").id(), options()));
            clock.advance(Duration.ofHours(2));
            assertEquals(List.of(), visitAll(store, VisitSpec.builder().includeRemoves(true).build()));
        }
    }

    @Test
    void visit_passingAnExpiredTombstone_forgetsIt() {
        try (InMemoryContentBackend store = backend().tombstoneRetention(Duration.ofHours(1)).build()) {
            run(store.put(song("a", "A"), options()));
            run(store.put(song("b", "B"), options()));
            run(store.remove(song("a", "A").id(), options()));
            clock.advance(Duration.ofHours(2));
            assertEquals(2, store.slots(BucketSpace.DEFAULT));

            assertEquals(1, visitAll(store, VisitSpec.builder().includeRemoves(true).build()).size());
            assertEquals(1, store.slots(BucketSpace.DEFAULT));
        }
    }

    @Test
    void visit_forgettingATombstoneWhileAPutOfItWaits_keepsThePut() {
        try (InMemoryContentBackend store = backend().tombstoneRetention(Duration.ofHours(1)).build()) {
            run(store.put(song("a", "A"), options()));
            run(store.remove(song("a", "A").id(), options()));
            clock.advance(Duration.ofHours(2));

            try (Visit visit = store.visit(VisitSpec.builder().includeRemoves(true).build())) {
                CompletableFuture<VisitBatch> batch = visit.next(100); // queued first: it finds the tombstone expired
                CompletableFuture<Outcome> put = store.put(song("a", "again"), options());
                executor.runAll();
                assertEquals(List.of(), batch.join().entries());
                assertEquals(Status.SUCCESS, put.join().status());
            }
            Outcome got = run(store.get(song("a", "").id(), FieldSet.all(), options()));
            assertEquals(Status.SUCCESS, got.status());
            assertEquals(song("a", "again"), got.document().orElseThrow());
            assertEquals(1, store.slots(BucketSpace.DEFAULT));
        }
    }

    @Test
    void visit_tombstoneWithinRetention_isReturned() {
        try (InMemoryContentBackend store = backend().tombstoneRetention(Duration.ofHours(1)).build()) {
            run(store.put(song("a", "A"), options()));
            long removed = run(store.remove(song("a", "A").id(), options())).timestamp();
            clock.advance(Duration.ofMinutes(30));
            assertEquals(List.of(VisitEntry.remove(song("a", "A").id(), removed)),
                         visitAll(store, VisitSpec.builder().includeRemoves(true).build()));
        }
    }

    @Test
    void visit_secondNextWhileFirstPending_fails() {
        try (InMemoryContentBackend store = backend().build(); Visit visit = store.visit(VisitSpec.builder().build())) {
            CompletableFuture<VisitBatch> first = visit.next(10);
            CompletableFuture<VisitBatch> second = visit.next(10);
            ExecutionException e = assertThrows(ExecutionException.class, second::get);
            assertInstanceOf(IllegalStateException.class, e.getCause());
            executor.runAll();
            assertTrue(first.join().isFinished());
        }
    }

    @Test
    void visit_manyNonMatchingDocuments_returnsEmptyUnfinishedBatchesUntilDone() {
        try (InMemoryContentBackend store = backend().distributionBits(8).build()) {
            for (int i = 0; i < 3 * InMemoryVisit.MAX_SCANNED_PER_BATCH; i++) {
                store.put(song("s" + i, "A").with("year", new IntValue(i)), options());
            }
            executor.runAll();
            VisitSpec spec = VisitSpec.builder()
                                      .selection(io.sluice.document.select.DocumentSelection.parse("music.year < 0"))
                                      .build();
            List<VisitBatch> batches = pages(store, spec);
            assertTrue(batches.size() > 2, "batches: " + batches.size());
            assertTrue(batches.stream().allMatch(batch -> batch.entries().isEmpty()));
        }
    }

    @Test
    void visit_batchEndsOnceItsTimeIsUp_andTheNextGoesOn() {
        // Each read of the visit's clock moves it 5 ms on, as a costly selection would: a batch stops after 20 ms.
        Clock ticking = new Clock() {
            @Override public ZoneId getZone() { return ZoneOffset.UTC; }
            @Override public Clock withZone(ZoneId zone) { return this; }
            @Override public Instant instant() { return clock.instant(); }
            @Override public long millis() {
                clock.advance(Duration.ofMillis(5));
                return clock.millis();
            }
        };
        try (InMemoryContentBackend store = backend().clock(ticking).build()) {
            for (int i = 0; i < 50; i++) {
                store.put(song("s" + i, "A"), options());
            }
            executor.runAll();
            List<VisitBatch> batches = pages(store, VisitSpec.builder().build());
            assertTrue(batches.size() >= 10, "batches: " + batches.size());
            assertTrue(batches.stream().allMatch(batch -> batch.entries().size() <= 5), "batches cut by time");
            assertEquals(50, batches.stream().mapToInt(batch -> batch.entries().size()).sum());
        }
    }

    @Test
    void put_afterClose_returnsError() {
        InMemoryContentBackend store = backend().build();
        store.close();
        assertEquals(Status.ERROR, run(store.put(song("a", "A"), options())).status());
    }

    @Test
    void visitNext_afterClose_fails() {
        InMemoryContentBackend store = backend().build();
        Visit visit = store.visit(VisitSpec.builder().build());
        store.close();
        ExecutionException e = assertThrows(ExecutionException.class, () -> visit.next(1).get());
        assertInstanceOf(IllegalStateException.class, e.getCause());
    }

    @Test
    void builder_nonPositiveLimit_namesIt() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                                                  () -> InMemoryContentBackend.builder().maxDocuments(0));
        assertEquals("maxDocuments must be positive, but was 0", e.getMessage());
    }

    private List<VisitBatch> pages(InMemoryContentBackend store, VisitSpec spec) {
        List<VisitBatch> batches = new ArrayList<>();
        try (Visit visit = store.visit(spec)) {
            VisitBatch batch;
            do {
                CompletableFuture<VisitBatch> next = visit.next(100);
                executor.runAll();
                batch = next.join();
                batches.add(batch);
            } while (!batch.isFinished());
        }
        return batches;
    }

    private List<VisitEntry> visitAll(InMemoryContentBackend store, VisitSpec spec) {
        List<VisitEntry> entries = new ArrayList<>();
        pages(store, spec).forEach(batch -> entries.addAll(batch.entries()));
        return entries;
    }

}
