package io.sluice.content.cassandra;

import io.sluice.content.BucketSpace;
import io.sluice.content.DocumentKey;
import io.sluice.content.InvalidProgressTokenException;
import io.sluice.content.OperationOptions;
import io.sluice.content.Outcome.Status;
import io.sluice.content.ProgressToken;
import io.sluice.content.VisitBatch;
import io.sluice.content.VisitEntry;
import io.sluice.content.VisitSpec;
import io.sluice.content.cassandra.harness.SharedNode;
import io.sluice.document.BucketId;
import io.sluice.document.Document;
import io.sluice.document.DocumentId;
import io.sluice.document.DocumentType;
import io.sluice.document.DocumentTypes;
import io.sluice.document.PrimitiveType;
import io.sluice.document.Slice;
import io.sluice.document.StringValue;
import io.sluice.document.select.DocumentSelection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The token-range scan of visits without explicit buckets, on one real node: slices, continuations and page
 * boundaries, and what sparse stores cost in requests.
 */
@Tag("cassandra")
class CassandraVisitTest {

    private static final DocumentType MUSIC = DocumentType.builder("music").field("title", PrimitiveType.STRING)
                                                          .build();
    private static final DocumentTypes TYPES = DocumentTypes.of(List.of(MUSIC));
    private static final CassandraOptions OPTIONS = CassandraOptions.defaults("visits", 1);
    private static TestKeyspace keyspace;
    private CassandraContentBackend backend;

    @BeforeAll
    static void connect() {
        keyspace = TestKeyspace.open(OPTIONS, TYPES, SharedNode.get());
    }

    @AfterAll
    static void disconnect() {
        keyspace.close();
    }

    @BeforeEach
    void emptyTables() {
        keyspace.truncate();
        backend = keyspace.backend().build();
    }

    @AfterEach
    void close() {
        backend.close();
    }

    @Test
    void slices_of1_3_8_areDisjointAndCoverEveryDocument() {
        Set<String> expected = put(200, ":", 10);
        expected.addAll(put(20, "g=shared:", 10));
        for (int slices : new int[] { 1, 3, 8 }) {
            Set<String> union = new HashSet<>();
            int total = 0;
            for (int sliceId = 0; sliceId < slices; sliceId++) {
                List<String> slice = ids(visitAll(spec().slice(Slice.of(slices, sliceId)).build(), 9));
                union.addAll(slice);
                total += slice.size();
            }
            assertEquals(expected, union, slices + " slices");
            assertEquals(expected.size(), total, slices + " slices");
        }
    }

    @Test
    void resumedFromEveryContinuation_returnsEachDocumentExactlyOnce() {
        put(150, ":", 10);
        put(12, "n=7:", 10); // several documents in one bucket, so continuations fall inside a bucket too
        for (Slice slice : List.of(Slice.ALL, Slice.of(3, 2))) {
            List<VisitBatch> batches = batches(spec().slice(slice).build(), 7);
            List<String> all = ids(batches.stream().flatMap(batch -> batch.entries().stream())
                                          .collect(Collectors.toList()));
            assertEquals(all.size(), new HashSet<>(all).size(), "no repeats");
            int returned = 0;
            for (VisitBatch batch : batches) {
                returned += batch.entries().size();
                if (batch.isFinished()) {
                    break;
                }
                ProgressToken token = ProgressToken.parse(batch.continuation().orElseThrow().encoded());
                List<String> rest = ids(visitAll(spec().slice(slice).progress(token).build(), 11));
                assertEquals(all.subList(returned, all.size()), rest, "resumed after " + returned + " entries");
            }
        }
    }

    @Test
    void sparseStore_finishesInOneQuery() {
        put(5, ":", 10);
        try (CassandraVisit visit = (CassandraVisit) backend.visit(spec().build())) {
            List<VisitEntry> entries = drain(visit, 1000);
            assertEquals(5, entries.size());
            assertEquals(1, visit.queries(), "one page of one scan, with no partitions probed");
        }
    }

    @Test
    void emptyStore_finishesInOneQueryPerSlice() {
        for (int sliceId = 0; sliceId < 8; sliceId++) {
            try (CassandraVisit visit = (CassandraVisit) backend.visit(spec().slice(Slice.of(8, sliceId)).build())) {
                assertTrue(drain(visit, 1000).isEmpty());
                assertEquals(1, visit.queries());
            }
        }
    }

    @Test
    void resumedVisitOfSparseStore_takesThreeQueries() {
        put(5, ":", 10);
        ProgressToken token = batches(spec().build(), 2).get(0).continuation().orElseThrow();
        try (CassandraVisit visit = (CassandraVisit) backend.visit(spec().progress(token).build())) {
            assertEquals(3, drain(visit, 1000).size());
            assertEquals(3, visit.queries(), "the partitions at its token, the rest of its partition, the scan");
        }
    }

    @Test
    void entries_areNeverLostAcrossPageBoundaries() {
        Set<String> expected = put(600, ":", 4000); // pages of about 1 MiB are some 250 rows of these
        try (CassandraVisit visit = (CassandraVisit) backend.visit(spec().build())) {
            List<String> ids = ids(drain(visit, 13));
            assertEquals(expected.size(), ids.size(), "no repeats");
            assertEquals(expected, new HashSet<>(ids));
            assertTrue(visit.queries() >= 3, "several pages: " + visit.queries());
        }
    }

    @Test
    void explicitBucket_isReadAcrossPagesInVisitingOrder() {
        put(50, ":", 10);
        Set<String> group = put(230, "g=big:", 10);
        VisitSpec spec = spec().selection(DocumentSelection.parse("id.group == 'big'")).build();
        List<DocumentKey> keys = visitAll(spec, 9).stream().map(entry -> DocumentKey.of(entry.id()))
                                                  .collect(Collectors.toList());
        List<DocumentKey> sorted = new ArrayList<>(keys);
        sorted.sort(null);
        assertEquals(sorted, keys);
        assertEquals(group, keys.stream().map(DocumentKey::id).collect(Collectors.toSet()));
    }

    @Test
    void continuationOutsideItsSlicesTokenRange_failsWithTypedError() {
        PartitionTokens tokens = PartitionTokens.of(keyspace.session());
        TokenRange first = TokenRange.of(Slice.of(2, 0));
        DocumentId outside = null;
        for (int i = 0; outside == null; i++) {
            DocumentId id = DocumentId.of("id:ns:music::" + i);
            int sb = (int) (BucketId.of(id).orderKey() >>> (64 - OPTIONS.distributionBits()));
            outside = first.contains(tokens.of(sb)) ? null : id;
        }
        ProgressToken token = ProgressToken.of(OPTIONS.distributionBits(), Slice.of(2, 0), BucketSpace.DEFAULT,
                                               DocumentKey.of(outside));
        assertThrows(InvalidProgressTokenException.class,
                     () -> backend.visit(spec().slice(Slice.of(2, 0)).progress(token).build()));
    }

    /** Puts {@code count} documents {@code id:ns:music:<prefix><i>} with titles of {@code titleLength} characters. */
    private Set<String> put(int count, String prefix, int titleLength) {
        OperationOptions options = OperationOptions.until(Instant.now().plusSeconds(60));
        List<CompletableFuture<io.sluice.content.Outcome>> writes = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < count; i++) {
            DocumentId id = DocumentId.of("id:ns:music:" + prefix + i);
            writes.add(backend.put(Document.builder(MUSIC, id).set("title", new StringValue("t".repeat(titleLength)))
                                           .build(), options));
            ids.add(id.toString());
        }
        writes.forEach(write -> assertEquals(Status.SUCCESS, await(write).status()));
        return ids;
    }

    private static VisitSpec.Builder spec() {
        return VisitSpec.builder();
    }

    private List<VisitBatch> batches(VisitSpec spec, int batchSize) {
        List<VisitBatch> batches = new ArrayList<>();
        try (CassandraVisit visit = (CassandraVisit) backend.visit(spec)) {
            VisitBatch batch;
            do {
                batch = await(visit.next(batchSize));
                batches.add(batch);
            } while (!batch.isFinished());
        }
        return batches;
    }

    private List<VisitEntry> visitAll(VisitSpec spec, int batchSize) {
        return batches(spec, batchSize).stream().flatMap(batch -> batch.entries().stream())
                                       .collect(Collectors.toList());
    }

    private static List<VisitEntry> drain(CassandraVisit visit, int batchSize) {
        List<VisitEntry> entries = new ArrayList<>();
        VisitBatch batch;
        do {
            batch = await(visit.next(batchSize));
            entries.addAll(batch.entries());
        } while (!batch.isFinished());
        return entries;
    }

    private static List<String> ids(List<VisitEntry> entries) {
        return entries.stream().map(entry -> entry.id().toString()).collect(Collectors.toList());
    }

    private static <T> T await(CompletableFuture<T> future) {
        try {
            return future.get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

}
