package io.sluice.content.embedded;

import io.sluice.document.Document;
import io.sluice.document.DocumentId;
import io.sluice.document.DocumentType;
import io.sluice.document.DocumentTypes;
import io.sluice.document.IntValue;
import io.sluice.document.PrimitiveType;
import io.sluice.document.Slice;
import io.sluice.document.StringValue;
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
import io.sluice.document.json.FieldsJson;
import io.sluice.document.select.DocumentSelection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the embedded store adds to the conformance suite: persistence, disk limits, tombstone expiry, statistics. */
class EmbeddedStoreTest {

    private static final DocumentType MUSIC = DocumentType.builder("music")
            .field("title", PrimitiveType.STRING)
            .field("year", PrimitiveType.INT)
            .build();
    private static final DocumentTypes TYPES = DocumentTypes.of(List.of(MUSIC));
    private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

    @TempDir(factory = MemoryBackedTempDir.class)
    Path directory;

    private final ManualClock clock = new ManualClock(START);
    private final List<EmbeddedContentBackend> opened = new ArrayList<>();

    @AfterEach
    void closeAll() {
        opened.forEach(EmbeddedContentBackend::close);
    }

    private EmbeddedOptions.Builder options() {
        return EmbeddedOptions.builder(directory, TYPES).clock(clock).minFreeDiskBytes(0)
                              .blockCacheBytes(8 << 20).writeBufferBytes(8 << 20).threads(2);
    }

    private EmbeddedContentBackend open(EmbeddedOptions.Builder options) {
        EmbeddedContentBackend backend = EmbeddedContentBackend.open(options.build());
        opened.add(backend);
        return backend;
    }

    private static DocumentId id(String name) {
        return DocumentId.of("id:ns:music::" + name);
    }

    private static Document song(String name, String title) {
        return Document.builder(MUSIC, id(name)).set("title", new StringValue(title)).set("year", new IntValue(1999))
                       .build();
    }

    private OperationOptions until() {
        return OperationOptions.until(clock.instant().plusSeconds(60));
    }

    private static <T> T await(CompletableFuture<T> future) {
        try {
            return future.get(30, TimeUnit.SECONDS);
        } catch (InterruptedException | ExecutionException | TimeoutException e) {
            throw new AssertionError(e);
        }
    }

    private List<VisitEntry> visitWithRemoves(EmbeddedContentBackend backend) {
        List<VisitEntry> entries = new ArrayList<>();
        try (Visit visit = backend.visit(VisitSpec.builder().includeRemoves(true).build())) {
            VisitBatch batch;
            do {
                batch = await(visit.next(100));
                entries.addAll(batch.entries());
            } while (!batch.isFinished());
        }
        return entries;
    }

    @Test
    void reopen_afterClose_returnsDocumentWithItsTimestamp() {
        EmbeddedContentBackend backend = open(options());
        Outcome written = await(backend.put(song("a", "Hey"), until()));
        backend.close();

        Outcome read = await(open(options()).get(id("a"), FieldSet.all(), until()));

        assertEquals(Outcome.found(song("a", "Hey"), written.timestamp()), read);
    }

    @Test
    void get_ofDocumentWrittenUnderTodaysSchema_answersWithItsStoredFieldsAsTheyAre() {
        EmbeddedContentBackend backend = open(options());
        await(backend.put(song("a", "Hey"), until()));

        Outcome read = await(backend.get(id("a"), FieldSet.all(), until()));

        assertEquals("{\"title\":\"Hey\",\"year\":1999}", read.fieldsJson().orElseThrow().toString());
        assertEquals(song("a", "Hey"), read.document().orElseThrow());
    }

    @Test
    void put_withTheFieldsAsWritten_storesThoseBytes_insteadOfWritingTheDocumentAgain() {
        EmbeddedContentBackend backend = open(options());
        // Bytes the writer would not write (it orders fields as the type does), so the test sees which were stored.
        byte[] body = "{\"fields\":{\"year\":1999,\"title\":\"Hey\"}}".getBytes(StandardCharsets.UTF_8);
        FieldsJson fields = new FieldsJson(body, 10, body.length - 11);

        await(backend.put(song("a", "Hey"), fields, until()));
        await(backend.put(song("b", "Hey"), null, until()));
        Outcome conditional = await(backend.put(song("b", "Hey"), fields,
                                                until().withCondition(DocumentSelection.parse("music.year == 1999"))));
        assertEquals(Status.SUCCESS, conditional.status());
        await(backend.put(song("c", "Hey"), null, until()));

        for (String name : List.of("a", "b")) {
            Outcome read = await(backend.get(id(name), FieldSet.all(), until()));
            assertEquals("{\"year\":1999,\"title\":\"Hey\"}", read.fieldsJson().orElseThrow().toString(), name);
            assertEquals(song(name, "Hey"), read.document().orElseThrow());
        }
        assertEquals("{\"title\":\"Hey\",\"year\":1999}",
                     await(backend.get(id("c"), FieldSet.all(), until())).fieldsJson().orElseThrow().toString());
    }

    @Test
    void get_afterTheSchemaDroppedAField_decodesWithoutIt_insteadOfSendingStoredFields() {
        EmbeddedContentBackend backend = open(options());
        await(backend.put(song("a", "Hey"), until()));
        backend.close();
        DocumentType titleOnly = DocumentType.builder("music").field("title", PrimitiveType.STRING).build();

        Outcome read = await(open(EmbeddedOptions.builder(directory, DocumentTypes.of(List.of(titleOnly))).clock(clock)
                                                 .minFreeDiskBytes(0).blockCacheBytes(8 << 20)
                                                 .writeBufferBytes(8 << 20).threads(2))
                                     .get(id("a"), FieldSet.all(), until()));

        assertTrue(read.fieldsJson().isEmpty(), read.toString());
        assertEquals(Document.builder(titleOnly, id("a")).set("title", new StringValue("Hey")).build(),
                     read.document().orElseThrow());
    }

    @Test
    void visit_ofDocumentsWrittenUnderTodaysSchema_carriesTheirStoredFields() {
        EmbeddedContentBackend backend = open(options());
        await(backend.put(song("a", "Hey"), until()));

        List<VisitEntry> entries = visitWithRemoves(backend);

        assertEquals(1, entries.size());
        assertEquals("{\"title\":\"Hey\",\"year\":1999}", entries.get(0).fieldsJson().orElseThrow().toString());
        assertEquals(song("a", "Hey"), entries.get(0).document().orElseThrow());
    }

    @Test
    void get_withFieldSetOrCondition_decodes() {
        EmbeddedContentBackend backend = open(options());
        await(backend.put(song("a", "Hey"), until()));

        Outcome filtered = await(backend.get(id("a"), FieldSet.parse("music:title", TYPES), until()));
        Outcome conditional = await(backend.get(id("a"), FieldSet.all(),
                                                until().withCondition(DocumentSelection.parse("music.year == 1999"))));

        assertTrue(filtered.fieldsJson().isEmpty());
        assertEquals(Document.builder(MUSIC, id("a")).set("title", new StringValue("Hey")).build(), filtered.document().orElseThrow());
        assertTrue(conditional.fieldsJson().isEmpty());
        assertEquals(song("a", "Hey"), conditional.document().orElseThrow());
    }

    @Test
    void documentFamilies_compactTwelveL0Files_atOnce_andSlowWritesAtRocksDbsDistancesAboveThat() throws Exception {
        try (RocksStore store = RocksStore.open(options().build())) {
            for (BucketSpace space : BucketSpace.values()) {
                var documents = store.db().getOptions(store.families(space).documents);
                assertEquals(12, documents.level0FileNumCompactionTrigger(), space.toString());
                assertEquals(28, documents.level0SlowdownWritesTrigger(), space.toString());
                assertEquals(44, documents.level0StopWritesTrigger(), space.toString());
            }
        }
    }

    @Test
    void close_flushesMemtables_leavingNoLogToReplay() throws IOException {
        EmbeddedContentBackend backend = open(options());
        for (int i = 0; i < 100; i++) {
            await(backend.put(song("d" + i, "Song " + i), until()));
        }

        backend.close();

        try (Stream<Path> files = Files.list(directory)) {
            assertEquals(0, files.filter(file -> file.toString().endsWith(".log"))
                                 .mapToLong(file -> file.toFile().length()).sum());
        }
    }

    @Test
    void plainWritesAndCachedReads_runOnTheCallersThread() {
        EmbeddedContentBackend backend = open(options());
        await(backend.put(song("a", "Hey"), until()));
        await(backend.remove(id("b"), until()));
        assertEquals(0, backend.operationsHandedOff(), "plain writes read nothing, so they never wait for a file");

        CompletableFuture<Outcome> get = backend.get(id("a"), FieldSet.all(), until());

        assertTrue(get.isDone(), "a read of what the memtable holds completes before get() returns");
        assertEquals(Status.SUCCESS, get.join().status());
        assertEquals(0, backend.operationsHandedOff());
    }

    @Test
    void getsIssuedRightAfterWrites_seeThoseWrites_whileReadsOfIdleDocumentsAnswerAtOnce() {
        EmbeddedContentBackend backend = open(options());
        await(backend.put(song("idle", "Still"), until()));
        List<CompletableFuture<Outcome>> gets = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            backend.put(song("a", "take " + i), until()); // not awaited: still in flight to the writer when the get comes
            gets.add(backend.get(id("a"), FieldSet.all(), until()));
            CompletableFuture<Outcome> idle = backend.get(id("idle"), FieldSet.all(), until());
            assertTrue(idle.isDone(), "nothing is in flight on 'idle': read " + i + " is answered before get() returns");
            assertEquals(song("idle", "Still"), idle.join().document().orElseThrow());
        }
        for (int i = 0; i < 200; i++) {
            assertEquals(song("a", "take " + i), await(gets.get(i)).document().orElseThrow(), "get " + i);
        }
    }

    @Test
    void readNeedingAFile_isHandedToAStoreThread_andThenItsBlocksAreCached() {
        EmbeddedContentBackend backend = open(options());
        Outcome written = await(backend.put(song("a", "Hey"), until()));
        backend.close(); // flushes: the document is now only in a file, and the reopened block cache is empty

        EmbeddedContentBackend reopened = open(options());
        assertEquals(Outcome.found(song("a", "Hey"), written.timestamp()),
                     await(reopened.get(id("a"), FieldSet.all(), until())));
        assertEquals(1, reopened.operationsHandedOff());
        assertEquals(Status.SUCCESS, await(reopened.get(id("a"), FieldSet.all(), until())).status());
        assertEquals(1, reopened.operationsHandedOff(), "the second read finds the blocks in the cache");
    }

    @Test
    void rowCachedRead_isNeverServedAfterTheDocumentChangesInANewerFile() throws Exception {
        EmbeddedContentBackend backend = open(options());
        await(backend.put(song("a", "Hey"), until()));
        backend.store().flush();
        assertEquals("Hey", title(await(backend.get(id("a"), FieldSet.all(), until()))), "a read from the file");
        assertEquals("Hey", title(await(backend.get(id("a"), FieldSet.all(), until()))), "the same row, now cached");

        clock.advance(Duration.ofSeconds(1));
        long rewritten = await(backend.put(song("a", "Jude"), until())).timestamp();
        assertEquals("Jude", title(await(backend.get(id("a"), FieldSet.all(), until()))), "from the memtable");
        backend.store().flush();
        Outcome afterFlush = await(backend.get(id("a"), FieldSet.all(), until()));
        assertEquals("Jude", title(afterFlush), "from the newer file, not the row cached from the older one");
        assertEquals(rewritten, afterFlush.timestamp());

        clock.advance(Duration.ofSeconds(1));
        await(backend.remove(id("a"), until()));
        backend.store().flush();
        assertEquals(Status.NOT_FOUND, await(backend.get(id("a"), FieldSet.all(), until())).status());
        backend.store().db().compactRange();
        assertEquals(Status.NOT_FOUND, await(backend.get(id("a"), FieldSet.all(), until())).status());
    }

    @Test
    void get_ofCachedDocument_seesEveryLaterWrite() {
        EmbeddedContentBackend backend = open(options().documentCacheBytes(1 << 20));
        await(backend.put(song("a", "Hey"), until()));
        assertEquals("Hey", title(await(backend.get(id("a"), FieldSet.all(), until())))); // from the store: cached
        assertEquals("Hey", title(await(backend.get(id("a"), FieldSet.all(), until()))));

        await(backend.put(song("a", "Jude"), until()));
        assertEquals("Jude", title(await(backend.get(id("a"), FieldSet.all(), until()))));
        DocumentSelection wasJude = DocumentSelection.parse("music.title == 'Jude'");
        Outcome conditional = await(backend.put(song("a", "Let it be"), until().withCondition(wasJude)));
        assertEquals(Status.SUCCESS, conditional.status(), conditional::toString);
        assertEquals("Let it be", title(await(backend.get(id("a"), FieldSet.all(), until()))));
        await(backend.remove(id("a"), until()));
        assertEquals(Status.NOT_FOUND, await(backend.get(id("a"), FieldSet.all(), until())).status());

        Map<String, Number> figures = backend.statistics();
        assertEquals(1L, figures.get(ContentStatistics.DOCUMENT_CACHE_MISSES), figures::toString);
        // Four gets after the first, and the condition's read of the stored version.
        assertEquals(5L, figures.get(ContentStatistics.DOCUMENT_CACHE_HITS), figures::toString);
    }

    @Test
    void get_whileAnotherThreadRewritesTheDocument_returnsTheLastAcknowledgedVersion() throws Exception {
        EmbeddedContentBackend backend = open(options().documentCacheBytes(1 << 20));
        await(backend.put(song("a", "0"), until()));
        AtomicBoolean done = new AtomicBoolean();
        List<Thread> readers = new ArrayList<>();
        for (int i = 0; i < 2; i++) { // reads racing the writes, offering what they read to the cache
            Thread reader = new Thread(() -> {
                while (!done.get()) {
                    await(backend.get(id("a"), FieldSet.all(), until()));
                }
            });
            reader.start();
            readers.add(reader);
        }
        try {
            for (int i = 1; i <= 300; i++) {
                await(backend.put(song("a", Integer.toString(i)), until()));

                assertEquals(Integer.toString(i), title(await(backend.get(id("a"), FieldSet.all(), until()))));
            }
        } finally {
            done.set(true);
            for (Thread reader : readers) {
                reader.join();
            }
        }
    }

    @Test
    void sweep_ofCachedTombstone_dropsItFromTheCache() {
        EmbeddedContentBackend backend = open(options().tombstoneRetention(Duration.ofHours(1))
                                                       .documentCacheBytes(1 << 20));
        await(backend.put(song("a", "Hey"), until()));
        await(backend.remove(id("a"), until()));
        assertEquals(Status.NOT_FOUND, await(backend.get(id("a"), FieldSet.all(), until())).status());
        assertTrue(backend.statistics().get(ContentStatistics.DOCUMENT_CACHE_BYTES).longValue() > 0,
                   "the tombstone read is cached");
        clock.advance(Duration.ofHours(2));

        assertEquals(1, await(backend.sweepTombstones()));

        assertEquals(0L, backend.statistics().get(ContentStatistics.DOCUMENT_CACHE_BYTES));
        assertEquals(Status.NOT_FOUND, await(backend.get(id("a"), FieldSet.all(), until())).status());
    }

    @Test
    void noDocumentCache_readsTheStore_andReportsNoCacheFigures() {
        EmbeddedContentBackend backend = open(options().documentCacheBytes(0));
        await(backend.put(song("a", "Hey"), until()));
        await(backend.get(id("a"), FieldSet.all(), until()));

        assertEquals("Hey", title(await(backend.get(id("a"), FieldSet.all(), until()))));
        assertFalse(backend.statistics().containsKey(ContentStatistics.DOCUMENT_CACHE_HITS));
    }

    private static String title(Outcome outcome) {
        assertEquals(Status.SUCCESS, outcome.status(), outcome::toString);
        return ((StringValue) outcome.document().orElseThrow().value("title").orElseThrow()).value();
    }

    @Test
    void reopen_afterClose_keepsRemovedDocumentRemoved() {
        EmbeddedContentBackend backend = open(options());
        await(backend.put(song("a", "Hey"), until()));
        clock.advance(Duration.ofSeconds(1));
        long removedAt = await(backend.remove(id("a"), until())).timestamp();
        backend.close();

        EmbeddedContentBackend reopened = open(options());

        assertEquals(Status.NOT_FOUND, await(reopened.get(id("a"), FieldSet.all(), until())).status());
        assertEquals(List.of(VisitEntry.remove(id("a"), removedAt)), visitWithRemoves(reopened));
    }

    @Test
    void reopen_withClockBehindStoredVersion_stillWritesLargerTimestamp() {
        EmbeddedContentBackend backend = open(options());
        long first = await(backend.put(song("a", "Hey"), until())).timestamp();
        backend.close();
        clock.set(START.minusSeconds(3600));

        long second = await(open(options()).put(song("a", "Jude"), until())).timestamp();

        assertEquals(first + 1, second);
    }

    @Test
    void reopen_afterCrash_startsAboveEveryTimestampWrittenBefore() throws Exception {
        EmbeddedContentBackend backend = open(options());
        long written = await(backend.put(song("a", "Hey"), until())).timestamp();
        long persisted = TimestampCeiling.stored(backend.store().db());
        assertTrue(persisted >= written, "the ceiling written with the put covers it: " + persisted);
        backend.close();
        // A crash writes no exact ceiling on close: put back the one written with the put, ahead of the clock.
        try (RocksStore store = RocksStore.open(options().build())) {
            store.db().put(TimestampCeiling.KEY, java.nio.ByteBuffer.allocate(8).putLong(persisted).array());
        }
        clock.set(START.minusSeconds(3600));

        long next = await(open(options()).put(song("b", "Jude"), until())).timestamp();

        assertEquals(persisted + 1, next);
    }

    @Test
    void reopen_storeWrittenWithoutTimestampCeiling_findsItsNewestTimestamp() throws Exception {
        EmbeddedContentBackend backend = open(options());
        await(backend.put(song("a", "Hey"), until()));
        clock.advance(Duration.ofSeconds(5));
        long newest = await(backend.remove(id("b"), until())).timestamp();
        backend.close();
        try (RocksStore store = RocksStore.open(options().build())) {
            store.db().delete(TimestampCeiling.KEY); // as a store written before the ceiling was kept
        }
        clock.set(START.minusSeconds(3600));

        long next = await(open(options()).put(song("a", "Jude"), until())).timestamp();

        assertEquals(newest + 1, next);
    }

    @Test
    void plainPutOverTombstone_leavesItsIndexEntry_whichTheSweepDropsWithoutDeletingTheDocument() {
        EmbeddedContentBackend backend = open(options().tombstoneRetention(Duration.ofHours(1)));
        await(backend.remove(id("a"), until()));
        await(backend.put(song("a", "Jude"), until()));
        clock.advance(Duration.ofHours(2));

        assertEquals(0, await(backend.sweepTombstones()));
        assertEquals(0, await(backend.sweepTombstones()), "the entry is gone after the first sweep");

        assertEquals(song("a", "Jude"), await(backend.get(id("a"), FieldSet.all(), until())).document().orElseThrow());
        assertEquals(1, visitWithRemoves(backend).size());
    }

    @Test
    void visit_documentOfTypeNoLongerInApplication_isSkipped() {
        EmbeddedContentBackend backend = open(options());
        await(backend.put(song("a", "Hey"), until()));
        backend.close();
        EmbeddedContentBackend withoutMusic = open(EmbeddedOptions.builder(directory, DocumentTypes.of(List.of()))
                                                                  .clock(clock).minFreeDiskBytes(0));

        assertEquals(List.of(), visitWithRemoves(withoutMusic));
    }

    @Test
    void get_documentOfTypeNoLongerInApplication_returnsErrorNamingType() {
        EmbeddedContentBackend backend = open(options());
        await(backend.put(song("a", "Hey"), until()));
        backend.close();
        EmbeddedContentBackend withoutMusic = open(EmbeddedOptions.builder(directory, DocumentTypes.of(List.of()))
                                                                  .clock(clock).minFreeDiskBytes(0));

        Outcome read = await(withoutMusic.get(id("a"), FieldSet.all(), until()));

        assertEquals(Outcome.error("Document type music does not exist"), read);
    }

    @Test
    void open_directoryInUse_failsNamingDirectory() {
        open(options());

        IllegalStateException e = assertThrows(IllegalStateException.class, () -> open(options()));

        assertTrue(e.getMessage().contains(directory.toString()), e.getMessage());
    }

    @Test
    void put_belowMinFreeDisk_returnsInsufficientStorage() {
        Outcome outcome = await(open(options().minFreeDiskBytes(Long.MAX_VALUE)).put(song("a", "Hey"), until()));

        assertEquals(Status.INSUFFICIENT_STORAGE, outcome.status());
        assertTrue(outcome.message().contains("bytes free"), outcome.message());
    }

    @Test
    void get_belowMinFreeDisk_stillReadsStoredDocument() {
        EmbeddedContentBackend backend = open(options());
        await(backend.put(song("a", "Hey"), until()));
        backend.close();

        Outcome read = await(open(options().minFreeDiskBytes(Long.MAX_VALUE)).get(id("a"), FieldSet.all(), until()));

        assertEquals(song("a", "Hey"), read.document().orElseThrow());
    }

    @Test
    void remove_belowMinFreeDisk_stillApplies() {
        EmbeddedContentBackend backend = open(options());
        await(backend.put(song("a", "Hey"), until()));
        backend.close();
        EmbeddedContentBackend full = open(options().minFreeDiskBytes(Long.MAX_VALUE));

        Outcome removed = await(full.remove(id("a"), until()));

        assertEquals(Outcome.writtenWithoutRead(removed.timestamp()), removed);
        assertEquals(Status.NOT_FOUND, await(full.get(id("a"), FieldSet.all(), until())).status());
    }

    @Test
    void sweep_tombstonePastRetention_deletesIt() {
        EmbeddedContentBackend backend = open(options().tombstoneRetention(Duration.ofHours(1)));
        await(backend.put(song("a", "Hey"), until()));
        await(backend.remove(id("a"), until()));
        clock.advance(Duration.ofHours(2));

        int swept = await(backend.sweepTombstones());
        clock.set(START); // the tombstone would be within retention again, had it not been deleted

        assertEquals(1, swept);
        assertEquals(List.of(), visitWithRemoves(backend));
    }

    @Test
    void sweep_tombstoneWithinRetention_keepsIt() {
        EmbeddedContentBackend backend = open(options().tombstoneRetention(Duration.ofHours(1)));
        await(backend.put(song("a", "Hey"), until()));
        long removedAt = await(backend.remove(id("a"), until())).timestamp();
        clock.advance(Duration.ofMinutes(59));

        int swept = await(backend.sweepTombstones());

        assertEquals(0, swept);
        assertEquals(List.of(VisitEntry.remove(id("a"), removedAt)), visitWithRemoves(backend));
    }

    @Test
    void sweep_tombstoneOverwrittenByPut_keepsDocument() {
        EmbeddedContentBackend backend = open(options().tombstoneRetention(Duration.ofHours(1)));
        await(backend.put(song("a", "Hey"), until()));
        await(backend.remove(id("a"), until()));
        await(backend.put(song("a", "Jude"), until()));
        clock.advance(Duration.ofHours(2));

        int swept = await(backend.sweepTombstones());

        assertEquals(0, swept);
        assertEquals(song("a", "Jude"), await(backend.get(id("a"), FieldSet.all(), until())).document().orElseThrow());
    }

    @Test
    void visit_tombstonePastRetention_isNotReturnedBeforeSweep() {
        EmbeddedContentBackend backend = open(options().tombstoneRetention(Duration.ofHours(1)));
        await(backend.put(song("a", "Hey"), until()));
        await(backend.remove(id("a"), until()));
        clock.advance(Duration.ofHours(2));

        assertEquals(List.of(), visitWithRemoves(backend));
    }

    /** Visits {@code spec} to the end; returns its entries and how many keys it read, as {@code [entries, keys]}. */
    private long[] visitCounting(EmbeddedContentBackend backend, VisitSpec spec) {
        long entries = 0;
        try (EmbeddedVisit visit = (EmbeddedVisit) backend.visit(spec)) {
            VisitBatch batch;
            do {
                batch = await(visit.next(10));
                entries += batch.entries().size();
            } while (!batch.isFinished());
            return new long[] { entries, visit.keysRead() };
        }
    }

    private EmbeddedContentBackend storeOfUsers(EmbeddedContentBackend backend, int users, int documentsPerUser) {
        for (int user = 0; user < users; user++) {
            for (int i = 0; i < documentsPerUser; i++) {
                DocumentId id = DocumentId.of("id:ns:music:n=" + user + ":" + i);
                await(backend.put(Document.builder(MUSIC, id).set("year", new IntValue(i)).build(), until()));
            }
        }
        return backend;
    }

    @Test
    void visit_userConstraint_readsOnlyThatUsersKeysAndOnePeek() {
        EmbeddedContentBackend backend = storeOfUsers(open(options()), 50, 4);

        long[] counts = visitCounting(backend, VisitSpec.builder()
                .selection(DocumentSelection.parse("id.user == 7")).build());

        assertEquals(4, counts[0]);
        assertEquals(5, counts[1]);
    }

    @Test
    void visit_slice_readsItsDocumentsAndOnePeekPerSuperbucket() {
        EmbeddedContentBackend backend = storeOfUsers(open(options().distributionBits(8)), 200, 5);

        long[] counts = visitCounting(backend, VisitSpec.builder().slice(new Slice(64, 5)).build());

        int superbucketsInSlice = 256 / 64;
        assertTrue(counts[0] > 0, "the slice holds documents");
        assertTrue(counts[1] <= counts[0] + superbucketsInSlice, counts[0] + " entries, " + counts[1] + " keys read");
    }

    @Test
    void stats_afterReopen_countDocumentsAndTombstonesAndStoredBytes() {
        EmbeddedContentBackend backend = open(options());
        for (int i = 0; i < 100; i++) {
            await(backend.put(song("d" + i, "Song " + i), until()));
        }
        await(backend.remove(id("d0"), until()));
        backend.close();

        EmbeddedStats stats = open(options()).stats();

        assertEquals(1, stats.tombstones());
        assertEquals(99, stats.documents());
        assertTrue(stats.storedBytes() > 0, stats.toString());
        assertFalse(stats.recoveryTime().isNegative(), stats.toString());
    }

    @Test
    void statistics_reportEveryFigureOfStats() {
        EmbeddedContentBackend backend = open(options().documentCacheBytes(1 << 20));
        await(backend.put(song("a", "Hey"), until()));
        await(backend.put(song("b", "Jude"), until()));
        await(backend.remove(id("a"), until()));
        EmbeddedStats stats = backend.stats();

        Map<String, Number> figures = backend.statistics();

        Map<String, Number> expected = new LinkedHashMap<>();
        expected.put(ContentStatistics.DOCUMENTS, stats.documents());
        expected.put(ContentStatistics.TOMBSTONES, stats.tombstones());
        expected.put(ContentStatistics.STORED_BYTES, stats.storedBytes());
        expected.put(ContentStatistics.WAL_BYTES, stats.walBytes());
        expected.put(ContentStatistics.WAL_WRITES, 3L); // each put and the remove waited for, so a group each
        expected.put(ContentStatistics.MEMTABLE_BYTES, stats.memtableBytes());
        expected.put(ContentStatistics.PENDING_OPERATIONS, 0);
        expected.put(ContentStatistics.RECOVERY_SECONDS, stats.recoveryTime().toNanos() / 1e9);
        expected.put(ContentStatistics.WRITES_STOPPED, 0);
        expected.put(ContentStatistics.DOCUMENT_CACHE_HITS, 0L);
        expected.put(ContentStatistics.DOCUMENT_CACHE_MISSES, 0L);
        expected.put(ContentStatistics.DOCUMENT_CACHE_BYTES, 0L);
        assertEquals(expected, figures);
        assertTrue(stats.walBytes() > 0, "unflushed writes are in the log: " + stats);
        assertTrue(stats.memtableBytes() > 0, "unflushed writes are in memtables: " + stats);
    }

    @Test
    void statistics_afterClose_areEmpty() {
        EmbeddedContentBackend backend = open(options());
        backend.close();

        assertEquals(Map.of(), backend.statistics());
    }

    @Test
    void storedBytes_ofCompressibleDocuments_areFarFewerThanTheirText() {
        EmbeddedContentBackend backend = open(options());
        String verse = "Hey Jude, don't make it bad, take a sad song and make it better. ";
        long textBytes = 0;
        for (int i = 0; i < 500; i++) {
            String title = i + " " + verse.repeat(30);
            textBytes += title.length();
            await(backend.put(song("d" + i, title), until()));
        }
        backend.close();

        long stored = open(options()).stats().storedBytes();

        assertTrue(stored > 0 && stored < textBytes / 4, stored + " bytes stored for " + textBytes + " bytes of text");
    }

    @Test
    void stats_afterClose_throws() {
        EmbeddedContentBackend backend = open(options());
        backend.close();

        assertThrows(IllegalStateException.class, backend::stats);
    }

    @Test
    void put_afterClose_returnsError() {
        EmbeddedContentBackend backend = open(options());
        backend.close();

        assertEquals(Status.ERROR, await(backend.put(song("a", "Hey"), until())).status());
    }

}
