package io.sluice.content;

import io.sluice.document.ArrayType;
import io.sluice.document.ArrayValue;
import io.sluice.document.Document;
import io.sluice.document.DocumentId;
import io.sluice.document.DocumentType;
import io.sluice.document.DocumentTypes;
import io.sluice.document.FieldSet;
import io.sluice.document.ImportedField;
import io.sluice.document.IntValue;
import io.sluice.document.PrimitiveType;
import io.sluice.document.ReferenceType;
import io.sluice.document.ReferenceValue;
import io.sluice.document.Slice;
import io.sluice.document.StringValue;
import io.sluice.document.TestUpdates;
import io.sluice.content.Outcome.Status;
import io.sluice.document.select.DocumentSelection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The behaviour every {@link ContentBackend} must show; a backend's test extends this class and says how to make one.
 * Each test gets a fresh, empty backend driven by a {@link ManualClock}, which the backend must use for timestamps,
 * deadlines and {@code now()} in selections.
 *
 * <p>Other modules get it from this module's test jar:
 * {@code <dependency><groupId>io.sluice</groupId><artifactId>sluice-document-api</artifactId>
 * <type>test-jar</type><scope>test</scope></dependency>}. Updates come from {@link TestUpdates}.
 */
public abstract class ContentBackendConformanceTest {

    /** A generous bound for a backend to complete anything; reaching it means the backend hangs. */
    private static final long HANG_SECONDS = 30;
    protected static final Instant START = Instant.parse("2026-01-01T00:00:00Z");
    protected static final DocumentType MUSIC = DocumentType.builder("music")
            .field("title", PrimitiveType.STRING)
            .field("year", PrimitiveType.INT)
            .field("tags", new ArrayType(PrimitiveType.STRING))
            .field("by", new ReferenceType("artist"))
            .importedField(new ImportedField("artist_name", "by", "name"))
            .build();
    protected static final DocumentType ARTIST = DocumentType.builder("artist")
            .field("name", PrimitiveType.STRING)
            .build();
    protected static final DocumentTypes TYPES = DocumentTypes.of(List.of(MUSIC, ARTIST));

    protected ManualClock clock;
    protected ContentBackend backend;

    /** A new, empty backend that reads time from {@code clock}. */
    protected abstract ContentBackend createBackend(ManualClock clock);

    /**
     * Whether this backend reads the previous version of plain puts and removes, so their {@code found()} is always
     * known; a backend that writes them without reading (which the contract allows) overrides this with false.
     */
    protected boolean readsBeforePlainWrites() {
        return true;
    }

    /**
     * Whether this backend returns the entries of a visit in visiting order ({@link DocumentKey}) across buckets; one
     * that returns buckets in another order (Vespa promises none across buckets) overrides this with false, and must
     * still return each bucket's entries together and in order.
     */
    protected boolean visitsInBucketOrder() {
        return true;
    }

    /** {@code outcome} of a plain put or remove says {@code found}, or, where the backend may not know, nothing false. */
    private void assertFound(boolean found, Outcome outcome) {
        if (outcome.foundKnown()) {
            assertEquals(found, outcome.found(), outcome.toString());
        } else {
            assertFalse(readsBeforePlainWrites(), "this backend reads before plain writes, yet did not: " + outcome);
            assertFalse(outcome.found(), outcome.toString());
        }
    }

    @BeforeEach
    void createFixture() {
        clock = new ManualClock(START);
        backend = createBackend(clock);
    }

    @AfterEach
    void closeBackend() {
        backend.close();
    }

    // ---- helpers ----

    protected static DocumentId id(String userSpecific) {
        return DocumentId.of("id:ns:music::" + userSpecific);
    }

    protected static Document song(String userSpecific, String title, int year) {
        return song(id(userSpecific), title, year);
    }

    protected static Document song(DocumentId id, String title, int year) {
        return Document.builder(MUSIC, id).set("title", new StringValue(title)).set("year", new IntValue(year)).build();
    }

    protected OperationOptions options() {
        return OperationOptions.until(clock.instant().plusSeconds(60));
    }

    protected OperationOptions options(String condition) {
        return options().withCondition(DocumentSelection.parse(condition));
    }

    protected static <T> T await(CompletableFuture<T> future) {
        try {
            return future.get(HANG_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        } catch (ExecutionException e) {
            throw new CompletionException(e.getCause());
        } catch (TimeoutException e) {
            throw new AssertionError("Backend did not complete within " + HANG_SECONDS + " s", e);
        }
    }

    protected Outcome put(Document document) {
        return await(backend.put(document, options()));
    }

    protected Outcome get(DocumentId id) {
        return await(backend.get(id, FieldSet.all(), options()));
    }

    protected Outcome remove(DocumentId id) {
        return await(backend.remove(id, options()));
    }

    protected static long micros(Instant instant) {
        return instant.getEpochSecond() * 1_000_000L + instant.getNano() / 1_000;
    }

    /** Every entry of a visit, pulling {@code batchSize} at a time. */
    protected List<VisitEntry> visitAll(VisitSpec spec, int batchSize) {
        return pages(spec, batchSize).stream().flatMap(batch -> batch.entries().stream()).collect(Collectors.toList());
    }

    /** Every batch of a visit, up to and including the finishing one. */
    protected List<VisitBatch> pages(VisitSpec spec, int batchSize) {
        List<VisitBatch> batches = new ArrayList<>();
        try (Visit visit = backend.visit(spec)) {
            VisitBatch batch;
            do {
                batch = await(visit.next(batchSize));
                batches.add(batch);
            } while (!batch.isFinished());
        }
        return batches;
    }

    protected static Set<String> ids(List<VisitEntry> entries) {
        Set<String> ids = new HashSet<>();
        for (VisitEntry entry : entries) {
            assertTrue(ids.add(entry.id().toString()), "Visited twice: " + entry.id());
        }
        return ids;
    }

    protected static List<String> idList(List<VisitEntry> entries) {
        return entries.stream().map(entry -> entry.id().toString()).collect(Collectors.toList());
    }

    /** Puts songs 0..count-1 (ids "0".."count-1", year 2000 + i) and returns their ids. */
    protected Set<String> putSongs(int count) {
        List<CompletableFuture<Outcome>> writes = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            writes.add(backend.put(song(Integer.toString(i), "song " + i, 2000 + i), options()));
        }
        writes.forEach(write -> assertEquals(Status.SUCCESS, await(write).status()));
        return IntStream.range(0, count).mapToObj(i -> id(Integer.toString(i)).toString()).collect(Collectors.toSet());
    }

    private static VisitSpec.Builder spec() {
        return VisitSpec.builder();
    }

    // ---- single-document operations ----

    @Test
    void put_thenGet_returnsDocument() {
        Document song = song("a", "Blue", 1999);
        put(song);
        Outcome got = get(song.id());
        assertEquals(Status.SUCCESS, got.status());
        assertEquals(song, got.document().orElseThrow());
    }

    @Test
    void put_new_succeedsNotFound() {
        Outcome outcome = put(song("a", "Blue", 1999));
        assertEquals(Status.SUCCESS, outcome.status());
        assertFound(false, outcome);
    }

    @Test
    void put_existing_overwritesAndReportsFound() {
        put(song("a", "Blue", 1999));
        Outcome outcome = put(song("a", "Green", 2001));
        assertFound(true, outcome);
        assertEquals(song("a", "Green", 2001), get(id("a")).document().orElseThrow());
    }

    @Test
    void get_missing_returnsNotFound() {
        Outcome outcome = get(id("nobody"));
        assertEquals(Status.NOT_FOUND, outcome.status());
        assertTrue(outcome.document().isEmpty());
    }

    @Test
    void get_withFieldSet_returnsOnlyThoseFields() {
        put(song("a", "Blue", 1999));
        Outcome outcome = await(backend.get(id("a"), FieldSet.parse("music:year", TYPES), options()));
        assertEquals(Map.of("year", new IntValue(1999)), outcome.document().orElseThrow().fields());
    }

    @Test
    void get_withNoFields_returnsIdOnly() {
        put(song("a", "Blue", 1999));
        Document document = await(backend.get(id("a"), FieldSet.none(), options())).document().orElseThrow();
        assertEquals(id("a"), document.id());
        assertEquals(Map.of(), document.fields());
    }

    @Test
    void remove_existing_succeedsFound() {
        put(song("a", "Blue", 1999));
        Outcome outcome = remove(id("a"));
        assertEquals(Status.SUCCESS, outcome.status());
        assertFound(true, outcome);
    }

    @Test
    void remove_existing_makesGetNotFound() {
        put(song("a", "Blue", 1999));
        remove(id("a"));
        assertEquals(Status.NOT_FOUND, get(id("a")).status());
    }

    @Test
    void remove_missing_succeedsNotFound() {
        Outcome outcome = remove(id("nobody"));
        assertEquals(Status.SUCCESS, outcome.status());
        assertFound(false, outcome);
    }

    @Test
    void put_afterRemove_revivesDocument() {
        put(song("a", "Blue", 1999));
        remove(id("a"));
        Outcome outcome = put(song("a", "Green", 2001));
        assertFound(false, outcome);
        assertEquals(song("a", "Green", 2001), get(id("a")).document().orElseThrow());
    }

    @Test
    void update_existing_appliesAndReportsFound() {
        put(song("a", "Blue", 1999));
        Outcome outcome = await(backend.update(TestUpdates.assign(MUSIC, id("a"), "year", new IntValue(2020)),
                                               options()));
        assertTrue(outcome.found());
        assertEquals(song("a", "Blue", 2020), get(id("a")).document().orElseThrow());
    }

    @Test
    void update_resultOutOfTheFieldsRange_isInvalidAndWritesNothing() {
        put(song("a", "Blue", Integer.MAX_VALUE));
        Outcome outcome = await(backend.update(TestUpdates.increment(MUSIC, id("a"), "year", 1), options()));
        assertEquals(Status.INVALID, outcome.status());
        assertEquals("Arithmetic update result 2.147483648E9 is out of range for a field of type int", outcome.message());
        assertEquals(song("a", "Blue", Integer.MAX_VALUE), get(id("a")).document().orElseThrow());
    }

    @Test
    void update_missing_succeedsNotFoundAndWritesNothing() {
        Outcome outcome = await(backend.update(TestUpdates.assign(MUSIC, id("a"), "year", new IntValue(2020)),
                                               options()));
        assertEquals(Status.SUCCESS, outcome.status());
        assertFalse(outcome.found());
        assertEquals(Status.NOT_FOUND, get(id("a")).status());
    }

    @Test
    void update_removed_withoutCreate_isMissing() {
        put(song("a", "Blue", 1999));
        remove(id("a"));
        Outcome outcome = await(backend.update(TestUpdates.assign(MUSIC, id("a"), "year", new IntValue(2020)),
                                               options()));
        assertFalse(outcome.found());
        assertEquals(Status.NOT_FOUND, get(id("a")).status());
    }

    @Test
    void update_missing_withCreate_createsFromEmptyDocument() {
        var update = TestUpdates.assign(MUSIC, id("a"), "year", new IntValue(2020)).withCreateIfNonExistent(true);
        Outcome outcome = await(backend.update(update, options()));
        assertEquals(Status.SUCCESS, outcome.status());
        assertFalse(outcome.found());
        assertEquals(Document.of(MUSIC, id("a")).with("year", new IntValue(2020)),
                     get(id("a")).document().orElseThrow());
    }

    @Test
    void update_missing_withCreateInOptions_createsDocument() {
        var update = TestUpdates.assign(MUSIC, id("a"), "year", new IntValue(2020));
        await(backend.update(update, options().withCreateIfNonExistent(true)));
        assertEquals(Status.SUCCESS, get(id("a")).status());
    }

    // ---- test-and-set conditions ----

    @Test
    void put_conditionTrue_applies() {
        put(song("a", "Blue", 1999));
        Outcome outcome = await(backend.put(song("a", "Green", 2001), options("music.year == 1999")));
        assertEquals(Status.SUCCESS, outcome.status());
        assertEquals(song("a", "Green", 2001), get(id("a")).document().orElseThrow());
    }

    @Test
    void put_conditionFalse_returnsConditionFailedAndKeepsDocument() {
        put(song("a", "Blue", 1999));
        Outcome outcome = await(backend.put(song("a", "Green", 2001), options("music.year == 2000")));
        assertEquals(Status.CONDITION_FAILED, outcome.status());
        assertFalse(outcome.message().isEmpty());
        assertEquals(song("a", "Blue", 1999), get(id("a")).document().orElseThrow());
    }

    @Test
    void put_conditionInvalid_countsAsFalse() {
        put(Document.builder(MUSIC, id("a")).set("title", new StringValue("Blue")).build()); // year unset
        Outcome outcome = await(backend.put(song("a", "Green", 2001), options("music.year > 1990")));
        assertEquals(Status.CONDITION_FAILED, outcome.status());
    }

    @Test
    void put_conditionOnMissingDocument_returnsConditionFailed() {
        Outcome outcome = await(backend.put(song("a", "Blue", 1999), options("music.year == 1999")));
        assertEquals(Status.CONDITION_FAILED, outcome.status());
        assertEquals(Status.NOT_FOUND, get(id("a")).status());
    }

    @Test
    void put_conditionOnMissingDocumentWithCreate_applies() {
        Outcome outcome = await(backend.put(song("a", "Blue", 1999),
                                            options("music.year == 2050").withCreateIfNonExistent(true)));
        assertEquals(Status.SUCCESS, outcome.status());
        assertEquals(Status.SUCCESS, get(id("a")).status());
    }

    @Test
    void put_conditionWithCreate_existingDocument_evaluatesCondition() {
        put(song("a", "Blue", 1999));
        Outcome outcome = await(backend.put(song("a", "Green", 2001),
                                            options("music.year == 2050").withCreateIfNonExistent(true)));
        assertEquals(Status.CONDITION_FAILED, outcome.status());
    }

    @Test
    void put_conditionOnRemovedDocumentWithCreate_applies() {
        put(song("a", "Blue", 1999));
        remove(id("a"));
        Outcome outcome = await(backend.put(song("a", "Green", 2001),
                                            options("music.year == 1999").withCreateIfNonExistent(true)));
        assertEquals(Status.SUCCESS, outcome.status());
    }

    @Test
    void update_conditionFalse_returnsConditionFailed() {
        put(song("a", "Blue", 1999));
        Outcome outcome = await(backend.update(TestUpdates.assign(MUSIC, id("a"), "year", new IntValue(2020)),
                                               options("music.title == 'Green'")));
        assertEquals(Status.CONDITION_FAILED, outcome.status());
        assertEquals(song("a", "Blue", 1999), get(id("a")).document().orElseThrow());
    }

    @Test
    void update_conditionTrue_applies() {
        put(song("a", "Blue", 1999));
        Outcome outcome = await(backend.update(TestUpdates.assign(MUSIC, id("a"), "year", new IntValue(2020)),
                                               options("music.title == 'Blue'")));
        assertEquals(Status.SUCCESS, outcome.status());
        assertEquals(song("a", "Blue", 2020), get(id("a")).document().orElseThrow());
    }

    @Test
    void update_conditionOnMissingDocument_returnsConditionFailed() {
        Outcome outcome = await(backend.update(TestUpdates.assign(MUSIC, id("a"), "year", new IntValue(2020)),
                                               options("music.title == 'Blue'")));
        assertEquals(Status.CONDITION_FAILED, outcome.status());
    }

    @Test
    void update_conditionOnMissingDocumentWithCreate_createsIgnoringCondition() {
        var update = TestUpdates.assign(MUSIC, id("a"), "year", new IntValue(2020)).withCreateIfNonExistent(true);
        Outcome outcome = await(backend.update(update, options("music.title == 'Blue'")));
        assertEquals(Status.SUCCESS, outcome.status());
        assertEquals(Status.SUCCESS, get(id("a")).status());
    }

    @Test
    void remove_conditionTrue_removes() {
        put(song("a", "Blue", 1999));
        Outcome outcome = await(backend.remove(id("a"), options("music.year < 2000")));
        assertTrue(outcome.found());
        assertEquals(Status.NOT_FOUND, get(id("a")).status());
    }

    @Test
    void remove_conditionFalse_returnsConditionFailedAndKeepsDocument() {
        put(song("a", "Blue", 1999));
        Outcome outcome = await(backend.remove(id("a"), options("music.year > 2000")));
        assertEquals(Status.CONDITION_FAILED, outcome.status());
        assertEquals(Status.SUCCESS, get(id("a")).status());
    }

    @Test
    void remove_conditionOnMissingDocument_returnsConditionFailed() {
        Outcome outcome = await(backend.remove(id("a"), options("music.year > 2000")));
        assertEquals(Status.CONDITION_FAILED, outcome.status());
    }

    @Test
    void get_conditionFalse_returnsConditionFailed() {
        put(song("a", "Blue", 1999));
        Outcome outcome = await(backend.get(id("a"), FieldSet.all(), options("music.year > 2000")));
        assertEquals(Status.CONDITION_FAILED, outcome.status());
    }

    @Test
    void condition_now_readsBackendClock() {
        int nowSeconds = (int) clock.instant().getEpochSecond();
        put(Document.builder(MUSIC, id("a")).set("year", new IntValue(nowSeconds)).build());
        Outcome outcome = await(backend.remove(id("a"), options("music.year == now()")));
        assertEquals(Status.SUCCESS, outcome.status());
        assertTrue(outcome.found());
    }

    // ---- timestamps ----

    @Test
    void put_timestamp_isClockTimeInMicroseconds() {
        clock.advance(Duration.ofNanos(123_456_789));
        assertEquals(micros(clock.instant()), put(song("a", "Blue", 1999)).timestamp());
    }

    @Test
    void writes_atSameInstant_getStrictlyIncreasingTimestamps() {
        long first = put(song("a", "Blue", 1999)).timestamp();
        long second = put(song("a", "Green", 2001)).timestamp();
        long third = await(backend.update(TestUpdates.assign(MUSIC, id("a"), "year", new IntValue(3)), options()))
                .timestamp();
        long fourth = remove(id("a")).timestamp();
        assertTrue(first < second && second < third && third < fourth,
                   first + ", " + second + ", " + third + ", " + fourth);
    }

    @Test
    void get_returnsTimestampOfStoredVersion() {
        long written = put(song("a", "Blue", 1999)).timestamp();
        clock.advance(Duration.ofSeconds(5));
        assertEquals(written, get(id("a")).timestamp());
    }

    @Test
    void write_afterClockWentBack_stillGetsLargerTimestamp() {
        clock.advance(Duration.ofSeconds(10));
        long first = put(song("a", "Blue", 1999)).timestamp();
        clock.set(START);
        assertTrue(put(song("a", "Green", 2001)).timestamp() > first);
    }

    // ---- ordering ----

    @Test
    void operationsOnOneId_issuedWithoutWaiting_applyInIssueOrder() {
        put(Document.of(MUSIC, id("a")));
        List<CompletableFuture<Outcome>> updates = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            updates.add(backend.update(TestUpdates.append(MUSIC, id("a"), "tags", new StringValue("t" + i)),
                                       options()));
        }
        updates.forEach(update -> assertEquals(Status.SUCCESS, await(update).status()));
        List<StringValue> expected = IntStream.range(0, 200).mapToObj(i -> new StringValue("t" + i))
                                              .collect(Collectors.toList());
        assertEquals(new ArrayValue(List.copyOf(expected)),
                     get(id("a")).document().orElseThrow().value("tags").orElseThrow());
    }

    @Test
    void mixedOperationsOnOneId_issuedWithoutWaiting_applyInIssueOrder() {
        CompletableFuture<Outcome> put = backend.put(song("a", "Blue", 1999), options());
        CompletableFuture<Outcome> removed = backend.remove(id("a"), options());
        CompletableFuture<Outcome> updateOfRemoved =
                backend.update(TestUpdates.assign(MUSIC, id("a"), "year", new IntValue(1)), options());
        CompletableFuture<Outcome> putAgain = backend.put(song("a", "Green", 2001), options());
        CompletableFuture<Outcome> get = backend.get(id("a"), FieldSet.all(), options());
        assertFound(false, await(put));
        assertFound(true, await(removed));
        assertFalse(await(updateOfRemoved).found());
        assertTrue(await(updateOfRemoved).foundKnown());
        assertFound(false, await(putAgain));
        assertEquals(song("a", "Green", 2001), await(get).document().orElseThrow());
    }

    @Test
    void operationsOnDifferentIds_fromSeveralThreads_allApply() throws InterruptedException {
        List<Thread> threads = new ArrayList<>();
        List<CompletableFuture<Outcome>> writes = java.util.Collections.synchronizedList(new ArrayList<>());
        for (int t = 0; t < 4; t++) {
            int thread = t;
            threads.add(new Thread(() -> {
                for (int i = 0; i < 100; i++) {
                    writes.add(backend.put(song(thread + "-" + i, "song", 2000), options()));
                }
            }));
        }
        threads.forEach(Thread::start);
        for (Thread thread : threads) {
            thread.join();
        }
        writes.forEach(write -> assertEquals(Status.SUCCESS, await(write).status()));
        assertEquals(400, ids(visitAll(spec().build(), 1000)).size());
    }

    // ---- deadlines ----

    @Test
    void put_deadlineInPast_returnsTimeoutAndDoesNotApply() {
        OperationOptions late = OperationOptions.until(clock.instant().minusMillis(1));
        assertEquals(Status.TIMEOUT, await(backend.put(song("a", "Blue", 1999), late)).status());
        assertEquals(Status.NOT_FOUND, get(id("a")).status());
    }

    @Test
    void remove_deadlineInPast_returnsTimeoutAndDoesNotApply() {
        put(song("a", "Blue", 1999));
        OperationOptions late = OperationOptions.until(clock.instant().minusMillis(1));
        assertEquals(Status.TIMEOUT, await(backend.remove(id("a"), late)).status());
        assertEquals(Status.SUCCESS, get(id("a")).status());
    }

    @Test
    void get_deadlineInPast_returnsTimeout() {
        put(song("a", "Blue", 1999));
        OperationOptions late = OperationOptions.until(clock.instant().minusMillis(1));
        assertEquals(Status.TIMEOUT, await(backend.get(id("a"), FieldSet.all(), late)).status());
    }

    // ---- bucket spaces ----

    @Test
    void get_inOtherBucketSpace_returnsNotFound() {
        Document artist = Document.builder(ARTIST, DocumentId.of("id:ns:artist::a"))
                                  .set("name", new StringValue("Bob")).build();
        await(backend.put(artist, options().withBucketSpace(BucketSpace.GLOBAL)));
        assertEquals(Status.NOT_FOUND, get(artist.id()).status());
        assertEquals(artist, await(backend.get(artist.id(), FieldSet.all(),
                                               options().withBucketSpace(BucketSpace.GLOBAL)))
                .document().orElseThrow());
    }

    @Test
    void visit_bucketSpaces_areKeptApart() {
        Document artist = Document.builder(ARTIST, DocumentId.of("id:ns:artist::a"))
                                  .set("name", new StringValue("Bob")).build();
        await(backend.put(artist, options().withBucketSpace(BucketSpace.GLOBAL)));
        put(song("a", "Blue", 1999));
        assertEquals(Set.of(id("a").toString()), ids(visitAll(spec().build(), 10)));
        assertEquals(Set.of(artist.id().toString()),
                     ids(visitAll(spec().bucketSpace(BucketSpace.GLOBAL).build(), 10)));
    }

    // ---- imported fields (parents in the global bucket space) ----

    private Document artist(String key, String name) {
        Document artist = Document.builder(ARTIST, DocumentId.of("id:ns:artist::" + key))
                                  .set("name", new StringValue(name)).build();
        assertEquals(Status.SUCCESS, await(backend.put(artist, options().withBucketSpace(BucketSpace.GLOBAL))).status());
        return artist;
    }

    private static Document songBy(String key, String artistKey) {
        return Document.builder(MUSIC, id(key)).set("title", new StringValue(key))
                       .set("by", new ReferenceValue(DocumentId.of("id:ns:artist::" + artistKey))).build();
    }

    private Set<String> visitWhere(String selection) {
        return ids(visitAll(spec().selection(DocumentSelection.parse(selection)).build(), 2));
    }

    @Test
    void importedFields_inVisits_areReadFromTheParent() {
        assumeTrue(backend.followsReferences(), "this backend does not read parents");
        artist("cp", "Coldplay");
        artist("u2", "U2");
        put(songBy("yellow", "cp"));
        put(songBy("clocks", "cp"));
        put(songBy("one", "u2"));
        put(songBy("orphan", "gone"));    // the parent does not exist
        put(song("unreferenced", "x", 2000)); // no reference at all
        assertEquals(Set.of(id("yellow").toString(), id("clocks").toString()),
                     visitWhere("music.artist_name == \"Coldplay\""));
        assertEquals(Set.of(id("one").toString()), visitWhere("music.artist_name = \"U*\""));
        assertEquals(Set.of(id("orphan").toString(), id("unreferenced").toString()),
                     visitWhere("music.artist_name == null"));

        artist("cp", "Coldplay (renamed)"); // a later visit sees the parent as it is now
        assertEquals(Set.of(), visitWhere("music.artist_name == \"Coldplay\""));
        remove(id("one"));
        assertEquals(Status.SUCCESS, await(backend.remove(DocumentId.of("id:ns:artist::u2"),
                                                          options().withBucketSpace(BucketSpace.GLOBAL))).status());
        put(songBy("one", "u2"));
        assertTrue(visitWhere("music.artist_name == null").contains(id("one").toString()), "parent removed");
    }

    @Test
    void importedFields_inConditions_areReadFromTheParent() {
        assumeTrue(backend.followsReferences(), "this backend does not read parents");
        artist("cp", "Coldplay");
        put(songBy("yellow", "cp"));
        put(songBy("orphan", "gone"));
        String coldplay = "music.artist_name == \"Coldplay\"";
        assertEquals(Status.SUCCESS, await(backend.get(id("yellow"), FieldSet.all(), options(coldplay))).status());
        assertEquals(Status.CONDITION_FAILED,
                     await(backend.get(id("orphan"), FieldSet.all(), options(coldplay))).status());
        assertEquals(Status.SUCCESS, await(backend.put(songBy("yellow", "cp"), options(coldplay))).status());
        assertEquals(Status.CONDITION_FAILED, await(backend.put(songBy("orphan", "cp"), options(coldplay))).status());
        assertEquals(Status.CONDITION_FAILED, await(backend.remove(id("orphan"), options(coldplay))).status());
        assertEquals(Status.SUCCESS, await(backend.remove(id("orphan"), options("music.artist_name == null"))).status());
        assertEquals(Status.NOT_FOUND, get(id("orphan")).status());
        assertEquals(Status.SUCCESS, await(backend.remove(id("yellow"), options(coldplay))).status());
    }

    // ---- visiting ----

    @Test
    void visit_returnsEveryDocumentOnce() {
        Set<String> expected = putSongs(100);
        assertEquals(expected, ids(visitAll(spec().build(), 7)));
    }

    @Test
    void visit_entries_comeInVisitingOrder() {
        putSongs(60);
        for (int i = 0; i < 5; i++) {
            put(song(DocumentId.of("id:ns:music:n=7:" + i), "same bucket", 2000));
        }
        List<DocumentKey> keys = visitAll(spec().build(), 7).stream().map(entry -> DocumentKey.of(entry.id()))
                                                             .collect(Collectors.toList());
        List<DocumentKey> sorted = new ArrayList<>(keys);
        sorted.sort(null);
        if (visitsInBucketOrder()) {
            assertEquals(sorted, keys);
            return;
        }
        assertEquals(65, new HashSet<>(keys).size(), "every entry once: " + keys);
        Set<Long> finishedBuckets = new HashSet<>();
        for (int i = 1; i < keys.size(); i++) {
            DocumentKey previous = keys.get(i - 1), key = keys.get(i);
            if (previous.orderKey() == key.orderKey()) {
                assertTrue(previous.compareTo(key) < 0, previous + " before " + key);
            } else {
                assertTrue(finishedBuckets.add(previous.orderKey()), "bucket of " + previous + " came back");
                assertFalse(finishedBuckets.contains(key.orderKey()), "bucket of " + key + " came back");
            }
        }
    }

    @Test
    void visit_entries_carryDocumentsAndTimestamps() {
        Document song = song("a", "Blue", 1999);
        long timestamp = put(song).timestamp();
        assertEquals(List.of(VisitEntry.put(song, timestamp)), visitAll(spec().build(), 10));
    }

    @Test
    void visit_emptyStore_finishesAt100Percent() {
        List<VisitBatch> batches = pages(spec().build(), 10);
        VisitBatch last = batches.get(batches.size() - 1);
        assertTrue(last.isFinished());
        assertEquals(100.0, last.percentFinished());
        assertTrue(batches.stream().allMatch(batch -> batch.entries().isEmpty()));
    }

    @Test
    void visit_batches_neverExceedMaxEntries() {
        putSongs(50);
        assertTrue(pages(spec().build(), 3).stream().allMatch(batch -> batch.entries().size() <= 3));
    }

    @Test
    void visit_byteLimit_boundsEveryBatchAndLosesNothing() {
        Set<String> expected = new HashSet<>();
        for (int i = 0; i < 30; i++) {
            Document song = song(Integer.toString(i), "t".repeat(1000 + 30 * i), 2000);
            assertEquals(Status.SUCCESS, put(song).status());
            expected.add(song.id().toString());
        }
        long maxBytes = 10_000; // engines weigh a title of 1,000-1,870 characters at 1-2 bytes a character
        List<VisitEntry> visited = new ArrayList<>();
        int batches = 0;
        try (Visit visit = backend.visit(spec().build())) {
            VisitBatch batch;
            do {
                batch = await(visit.next(100, maxBytes));
                long bytes = batch.entries().stream().mapToLong(VisitEntry::size).sum();
                assertTrue(bytes <= maxBytes, "a batch of " + bytes + " bytes");
                assertTrue(batch.entries().stream().allMatch(entry -> entry.size() >= 1000), "entries have sizes");
                assertEquals(0, batch.blockedBytes(), "no entry is larger than the limit");
                visited.addAll(batch.entries());
                batches++;
            } while (!batch.isFinished());
        }
        assertEquals(expected, ids(visited));
        assertTrue(batches >= 3, "30 entries of at least 1,000 bytes take at least 3 batches of 10,000 bytes");
    }

    @Test
    void visit_entryLargerThanMaxBytes_blocksWithItsSizeUntilAskedWithEnough() {
        Document song = song("big", "t".repeat(10_000), 2000);
        long timestamp = put(song).timestamp();
        try (Visit visit = backend.visit(spec().build())) {
            VisitBatch blocked;
            do {
                blocked = await(visit.next(10, 100));
            } while (blocked.blockedBytes() == 0 && !blocked.isFinished());
            assertTrue(blocked.entries().isEmpty());
            assertTrue(blocked.blockedBytes() > 10_000, "blocked by " + blocked.blockedBytes());
            assertFalse(blocked.isFinished());
            VisitBatch again = await(visit.next(10, 100)); // still too small: stays where it is
            assertEquals(blocked.blockedBytes(), again.blockedBytes());
            List<VisitEntry> rest = new ArrayList<>();
            VisitBatch batch = await(visit.next(10, blocked.blockedBytes()));
            rest.addAll(batch.entries());
            while (!batch.isFinished()) {
                batch = await(visit.next(10, blocked.blockedBytes()));
                rest.addAll(batch.entries());
            }
            assertEquals(List.of(VisitEntry.put(song, timestamp)), rest);
            assertEquals(blocked.blockedBytes(), rest.get(0).size());
        }
    }

    @Test
    void visit_afterFinishing_nextReturnsEmptyFinishedBatch() {
        putSongs(3);
        try (Visit visit = backend.visit(spec().build())) {
            VisitBatch batch;
            do {
                batch = await(visit.next(100));
            } while (!batch.isFinished());
            VisitBatch after = await(visit.next(100));
            assertTrue(after.isFinished());
            assertTrue(after.entries().isEmpty());
        }
    }

    @Test
    void visit_withSelection_returnsOnlyMatchingDocuments() {
        putSongs(20);
        List<VisitEntry> entries = visitAll(spec().selection(DocumentSelection.parse("music.year >= 2015")).build(),
                                            4);
        assertEquals(IntStream.range(15, 20).mapToObj(i -> id(Integer.toString(i)).toString())
                              .collect(Collectors.toSet()),
                     ids(entries));
    }

    @Test
    void visit_userConstraint_returnsOnlyThatUsersDocuments() {
        putSongs(20);
        for (int i = 0; i < 5; i++) {
            put(song(DocumentId.of("id:ns:music:n=42:" + i), "mine", 2000));
            put(song(DocumentId.of("id:ns:music:n=43:" + i), "theirs", 2000));
        }
        List<VisitEntry> entries = visitAll(spec().selection(DocumentSelection.parse("id.user == 42")).build(), 2);
        assertEquals(IntStream.range(0, 5).mapToObj(i -> "id:ns:music:n=42:" + i).collect(Collectors.toSet()),
                     ids(entries));
    }

    @Test
    void visit_groupConstraint_returnsOnlyThatGroupsDocuments() {
        putSongs(20);
        for (int i = 0; i < 5; i++) {
            put(song(DocumentId.of("id:ns:music:g=mine:" + i), "mine", 2000));
            put(song(DocumentId.of("id:ns:music:g=theirs:" + i), "theirs", 2000));
        }
        List<VisitEntry> entries = visitAll(spec().selection(DocumentSelection.parse("id.group == 'mine'")).build(),
                                            2);
        assertEquals(IntStream.range(0, 5).mapToObj(i -> "id:ns:music:g=mine:" + i).collect(Collectors.toSet()),
                     ids(entries));
    }

    @Test
    void visit_fieldSet_appliesToDocuments() {
        putSongs(5);
        List<VisitEntry> entries = visitAll(spec().fieldSet(FieldSet.parse("music:title", TYPES)).build(), 10);
        assertEquals(5, entries.size());
        for (VisitEntry entry : entries) {
            assertEquals(Set.of("title"), entry.document().orElseThrow().fields().keySet());
        }
    }

    @Test
    void visit_slices_areDisjointAndCoverEverything() {
        Set<String> expected = putSongs(100);
        Set<String> union = new HashSet<>();
        int total = 0;
        for (int sliceId = 0; sliceId < 4; sliceId++) {
            Set<String> slice = ids(visitAll(spec().slice(Slice.of(4, sliceId)).build(), 5));
            assertFalse(slice.isEmpty(), "slice " + sliceId + " of 100 documents is empty");
            union.addAll(slice);
            total += slice.size();
        }
        assertEquals(expected, union);
        assertEquals(100, total);
    }

    @Test
    void visit_slicesOfAnEngineInBucketOrder_areContiguousRuns() {
        assumeTrue(visitsInBucketOrder(), "this backend splits slices otherwise");
        putSongs(100);
        DocumentKey lastOfPrevious = null;
        for (int sliceId = 0; sliceId < 4; sliceId++) {
            List<VisitEntry> slice = visitAll(spec().slice(Slice.of(4, sliceId)).build(), 7);
            for (VisitEntry entry : slice) {
                DocumentKey key = DocumentKey.of(entry.id());
                assertTrue(lastOfPrevious == null || lastOfPrevious.compareTo(key) < 0,
                           key + " of slice " + sliceId + " comes after " + lastOfPrevious);
                lastOfPrevious = key;
            }
        }
    }

    @Test
    void visit_sliceContinuationOfAnOlderVersion_isRefusedWhereSlicesAreRuns_otherwiseResumes() {
        putSongs(60);
        Slice slice = Slice.of(3, 1);
        List<VisitBatch> batches = pages(spec().slice(slice).build(), 4);
        List<String> all = idList(batches.stream().flatMap(b -> b.entries().stream()).collect(Collectors.toList()));
        ProgressToken old = ProgressToken.parse(ProgressTokenTest.version1(batches.get(0).continuation().orElseThrow()));
        VisitSpec resumed = spec().slice(slice).progress(old).build();
        if (visitsInBucketOrder()) {
            InvalidProgressTokenException e = assertThrows(InvalidProgressTokenException.class,
                                                           () -> backend.visit(resumed));
            assertTrue(e.getMessage().startsWith("Continuation token is for slice 1 of 3 as an older version of "
                                                 + "Sluice split them"), e.getMessage());
        } else {
            assertEquals(all.subList(batches.get(0).entries().size(), all.size()), idList(visitAll(resumed, 4)));
        }
    }

    @Test
    void visit_continuationOfAnOlderVersion_ofOneSlice_resumes() {
        putSongs(30);
        List<VisitBatch> batches = pages(spec().build(), 4);
        List<String> all = idList(batches.stream().flatMap(b -> b.entries().stream()).collect(Collectors.toList()));
        ProgressToken old = ProgressToken.parse(ProgressTokenTest.version1(batches.get(0).continuation().orElseThrow()));
        assertEquals(all.subList(batches.get(0).entries().size(), all.size()),
                     idList(visitAll(spec().progress(old).build(), 4)));
    }

    @Test
    void visit_explicitBuckets_ignoreSlicing() {
        putSongs(10);
        for (int i = 0; i < 3; i++) {
            put(song(DocumentId.of("id:ns:music:g=mine:" + i), "mine", 2000));
        }
        Set<String> expected = IntStream.range(0, 3).mapToObj(i -> "id:ns:music:g=mine:" + i)
                                        .collect(Collectors.toSet());
        for (int sliceId = 0; sliceId < 3; sliceId++) {
            VisitSpec sliced = spec().selection(DocumentSelection.parse("id.group == 'mine'"))
                                     .slice(Slice.of(3, sliceId)).build();
            assertEquals(expected, ids(visitAll(sliced, 10)), "slice " + sliceId);
        }
    }

    @Test
    void visit_timeRange_isInclusiveAtBothEnds() {
        long first = put(song("1", "one", 2001)).timestamp();
        clock.advance(Duration.ofSeconds(1));
        long second = put(song("2", "two", 2002)).timestamp();
        clock.advance(Duration.ofSeconds(1));
        long third = put(song("3", "three", 2003)).timestamp();
        clock.advance(Duration.ofSeconds(1));
        put(song("4", "four", 2004));
        assertTrue(first < second);
        List<VisitEntry> entries = visitAll(spec().timeRange(TimeRange.of(second, third)).build(), 10);
        assertEquals(Set.of(id("2").toString(), id("3").toString()), ids(entries));
    }

    @Test
    void visit_withoutIncludeRemoves_skipsTombstones() {
        putSongs(5);
        remove(id("3"));
        Set<String> ids = ids(visitAll(spec().build(), 10));
        assertEquals(4, ids.size());
        assertFalse(ids.contains(id("3").toString()));
    }

    @Test
    void visit_includeRemoves_returnsTombstoneWithItsTimestamp() {
        putSongs(5);
        clock.advance(Duration.ofSeconds(1));
        long removedAt = remove(id("3")).timestamp();
        List<VisitEntry> removes = visitAll(spec().includeRemoves(true).build(), 10).stream()
                .filter(VisitEntry::isRemove).collect(Collectors.toList());
        assertEquals(List.of(VisitEntry.remove(id("3"), removedAt)), removes);
    }

    @Test
    void visit_includeRemoves_selectionOnTypeMatchesTombstones() {
        put(song("a", "Blue", 1999));
        remove(id("a"));
        VisitSpec byType = spec().includeRemoves(true).selection(DocumentSelection.parse("music")).build();
        VisitSpec byField = spec().includeRemoves(true).selection(DocumentSelection.parse("music.year > 0")).build();
        assertEquals(1, visitAll(byType, 10).size());
        assertEquals(0, visitAll(byField, 10).size());
    }

    @Test
    void visit_resumedFromEveryContinuation_returnsExactlyTheRest() {
        putSongs(40);
        for (int i = 0; i < 4; i++) {
            put(song(DocumentId.of("id:ns:music:n=7:" + i), "same bucket", 2000)); // several documents in one bucket
        }
        List<VisitBatch> batches = pages(spec().build(), 3);
        List<String> all = idList(batches.stream().flatMap(b -> b.entries().stream()).collect(Collectors.toList()));
        int returned = 0;
        for (VisitBatch batch : batches) {
            returned += batch.entries().size();
            if (batch.isFinished()) {
                break;
            }
            ProgressToken token = ProgressToken.parse(batch.continuation().orElseThrow().encoded());
            List<String> rest = idList(visitAll(spec().progress(token).build(), 5));
            assertEquals(all.subList(returned, all.size()), rest, "resumed after " + returned + " entries");
        }
    }

    @Test
    void visit_resumedFromSliceContinuation_staysInSlice() {
        putSongs(60);
        Slice slice = Slice.of(3, 1);
        List<VisitBatch> batches = pages(spec().slice(slice).build(), 4);
        List<String> all = idList(batches.stream().flatMap(b -> b.entries().stream()).collect(Collectors.toList()));
        ProgressToken token = batches.get(0).continuation().orElseThrow();
        List<String> rest = idList(visitAll(spec().slice(slice).progress(token).build(), 4));
        assertEquals(all.subList(batches.get(0).entries().size(), all.size()), rest);
    }

    @Test
    void visit_continuation_isUrlSafe() {
        putSongs(20);
        for (VisitBatch batch : pages(spec().build(), 2)) {
            batch.continuation().ifPresent(token -> assertTrue(token.encoded().matches("[A-Za-z0-9_=-]+"),
                                                               token.encoded()));
        }
    }

    @Test
    void visit_corruptContinuation_failsWithTypedError() {
        putSongs(20);
        String token = pages(spec().build(), 2).get(0).continuation().orElseThrow().encoded();
        String corrupt = token.substring(0, 10) + (token.charAt(10) == 'A' ? 'B' : 'A') + token.substring(11);
        assertThrows(InvalidProgressTokenException.class, () -> ProgressToken.parse(corrupt));
    }

    @Test
    void visit_continuationOfOtherSlice_failsWithTypedError() {
        putSongs(20);
        ProgressToken token = pages(spec().slice(Slice.of(2, 0)).build(), 2).get(0).continuation().orElseThrow();
        VisitSpec otherSlice = spec().slice(Slice.of(2, 1)).progress(token).build();
        assertThrows(InvalidProgressTokenException.class, () -> backend.visit(otherSlice));
    }

    @Test
    void visit_continuationOfOtherBucketSpace_failsWithTypedError() {
        putSongs(20);
        ProgressToken token = pages(spec().build(), 2).get(0).continuation().orElseThrow();
        VisitSpec global = spec().bucketSpace(BucketSpace.GLOBAL).progress(token).build();
        assertThrows(InvalidProgressTokenException.class, () -> backend.visit(global));
    }

    @Test
    void visit_cancelled_failsNextWithCancellation() {
        putSongs(20);
        Visit visit = backend.visit(spec().build());
        await(visit.next(2));
        visit.cancel();
        assertThrows(CancellationException.class, () -> await(visit.next(2)));
    }

    @Test
    void visit_percentFinished_growsMonotonicallyTo100() {
        putSongs(50);
        List<VisitBatch> batches = pages(spec().build(), 3);
        double previous = 0;
        for (VisitBatch batch : batches) {
            assertTrue(batch.percentFinished() >= previous, batch.percentFinished() + " < " + previous);
            assertTrue(batch.isFinished() || batch.percentFinished() < 100);
            previous = batch.percentFinished();
        }
        assertEquals(100.0, previous);
    }

    @Test
    void visit_batchAtBucketBoundary_continuesAtBucketStart() {
        putSongs(30);
        List<VisitBatch> boundaries = pages(spec().build(), 1).stream()
                .filter(batch -> batch.atBucketBoundary() && !batch.isFinished()).collect(Collectors.toList());
        assertFalse(boundaries.isEmpty());
        for (VisitBatch batch : boundaries) {
            assertTrue(batch.continuation().orElseThrow().position().isBucketStart(), batch.toString());
        }
    }

}
