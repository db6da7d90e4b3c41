package io.sluice.content.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import io.sluice.document.DocumentId;
import io.sluice.document.DocumentType;
import io.sluice.content.DocumentKey;
import io.sluice.content.KeyRange;
import io.sluice.content.PulledVisit;
import io.sluice.content.VisitBatch;
import io.sluice.content.VisitEntry;
import io.sluice.content.VisitPlan;
import io.sluice.content.VisitSpec;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.BooleanSupplier;

/**
 * A visit of one table, pulled a batch at a time; each batch is at most a few bounded queries. Entries come in
 * visiting order ({@link DocumentKey}), and positions are plain visiting-order keys as {@link VisitPlan} defines them.
 *
 * <p><b>Without explicit buckets</b> the visit walks its slice's superbuckets (cursor {@code c} with
 * {@code c mod slices == sliceId}), which are exactly the table's partitions, so a slice reads only its share of the
 * data. To skip empty superbuckets cheaply it reads a window of the slice's next partitions in one query
 * ({@code sb IN ? PER PARTITION LIMIT ?}, which costs a bloom-filter probe per empty one) and orders the rows by
 * cursor itself; the window widens while it finds nothing and narrows when it finds data. When a window finds nothing,
 * the visit also lists the table's non-empty partitions once ({@code SELECT DISTINCT sb ... LIMIT}, a cheap scan of
 * partition keys); if there are few, it reads only those. A partition cut short by the per-partition limit, or a
 * position inside a partition, is read on with a clustering-range query.
 *
 * <p><b>With explicit buckets</b> (from the selection) the visit reads just their key ranges in their partitions.
 */
final class CassandraVisit extends PulledVisit {

    /** Queries one {@link #next} makes at most before returning what it has, so sparse matches cannot hog it. */
    static final int MAX_QUERIES_PER_BATCH = 8;
    private static final int MAX_ROWS_PER_QUERY = 1000;
    private static final int MIN_WINDOW = 4;
    /** At most 100 partitions per IN: ScyllaDB's default max_partition_key_restrictions_per_query. */
    private static final int MAX_WINDOW = 100;
    private static final int MAX_WINDOW_ROWS = 4096;
    /** Up to this many non-empty partitions, a sparse table's partitions are listed instead of probed. */
    static final int SPARSE_PARTITIONS = 4096;

    private final CqlSession session;
    private final Schema.Statements statements;
    private final VisitPlan plan;
    private final CassandraOptions options;
    private final DocumentCodec codec;
    private final Executor executor;
    private final int shift;
    private volatile DocumentKey position; // null once finished
    private volatile int window = 64;
    private volatile boolean listed;
    private volatile long[] nonEmpty; // this slice's non-empty partitions, ascending, if the table is sparse
    private volatile long rowBytes;   // a moving average of the bodies read, to size reads by bytes; 0 before any

    CassandraVisit(CqlSession session, Schema.Statements statements, VisitPlan plan, VisitSpec spec,
                   CassandraOptions options, DocumentCodec codec, Clock clock, Executor executor,
                   BooleanSupplier backendClosed) {
        super("Cassandra", spec, clock, backendClosed);
        this.session = session;
        this.statements = statements;
        this.plan = plan;
        this.options = options;
        this.codec = codec;
        this.executor = executor;
        this.shift = 64 - options.distributionBits();
        this.position = plan.start();
    }

    @Override
    protected CompletableFuture<VisitBatch> read(int maxEntries, long maxBytes) {
        return step(new Taken(maxEntries, maxBytes), position, 0).handle((batch, failure) -> {
            if (failure != null) {
                throw Failures.visitFailure(failure, "a visit of bucket space '" + spec.bucketSpace().wireName() + "'");
            }
            return batch;
        });
    }

    private CompletableFuture<VisitBatch> step(Taken out, DocumentKey at, int queries) {
        if (isCancelled()) {
            return CompletableFuture.failedFuture(new CancellationException("The visit was cancelled"));
        }
        Optional<KeyRange> unit = at == null ? Optional.empty() : plan.unitAt(at);
        if (unit.isEmpty()) {
            return CompletableFuture.completedFuture(batch(out, null));
        }
        if (queries >= MAX_QUERIES_PER_BATCH) {
            return CompletableFuture.completedFuture(batch(out, at));
        }
        int limit = (int) Math.min(Math.min(MAX_ROWS_PER_QUERY, rowsFor(out)),
                                   (long) (out.maxEntries - out.entries.size() + 1) << queries);
        KeyRange range = unit.get();
        DocumentKey from = at.compareTo(range.start()) < 0 ? range.start() : at;
        if (plan.hasExplicitBuckets() || !from.equals(range.start())) {
            return readPartition(out, from, range, limit, queries);
        }
        return readWindow(out, range.first() >>> shift, limit, queries);
    }

    /** Reads on in the partition of {@code from}, up to the end of {@code range} or of the partition. */
    private CompletableFuture<VisitBatch> readPartition(Taken out, DocumentKey from,
                                                       KeyRange range, int limit, int queries) {
        int sb = cursor(from.orderKey());
        long upper = Long.compareUnsigned(range.last(), partitionLast(sb)) < 0 ? range.last() : partitionLast(sb);
        DocumentKey afterPartition = upper == -1L ? null : DocumentKey.bucketStart(upper + 1);
        BoundStatement statement = statements.readPartition().bind(sb, from.orderKey(), from.id(), upper, limit);
        return execute(statement, limit).thenComposeAsync(rows -> {
            Optional<DocumentKey> stop = take(rows, out);
            if (stop.isPresent()) {
                return CompletableFuture.completedFuture(batch(out, stop.get()));
            }
            DocumentKey next = rows.size() < limit ? afterPartition : after(rows.get(rows.size() - 1));
            return proceed(out, next, queries);
        }, executor);
    }

    /**
     * Reads whole partitions: the slice's next {@link #window} superbuckets from cursor {@code first}, at most
     * {@code limit} rows of each (fewer in wide windows, so one query stays bounded).
     */
    private CompletableFuture<VisitBatch> readWindow(Taken out, long first, int limit,
                                                     int queries) {
        int byBytes = rowsFor(out);
        List<Integer> cursors = cursors(first, Math.min(window, byBytes));
        if (cursors.isEmpty()) {
            return CompletableFuture.completedFuture(batch(out, null));
        }
        long count = 1L << options.distributionBits();
        long last = Integer.toUnsignedLong(cursors.get(cursors.size() - 1));
        DocumentKey afterWindow = last + 1 >= count ? null : DocumentKey.bucketStart((last + 1) << shift);
        int perPartition = Math.max(1, Math.min(limit, Math.min(MAX_WINDOW_ROWS, byBytes) / cursors.size()));
        BoundStatement statement = statements.readPartitions().bind(cursors, perPartition);
        return execute(statement, MAX_WINDOW_ROWS).thenComposeAsync(rows -> {
            window = rows.isEmpty() ? Math.min(MAX_WINDOW, window * 4) : Math.max(MIN_WINDOW, window / 2);
            if (rows.isEmpty() && !listed) {
                return listPartitions().thenCompose(ignored -> proceed(out, afterWindow, queries));
            }
            Map<Integer, List<Row>> byPartition = new HashMap<>();
            for (Row row : rows) {
                byPartition.computeIfAbsent(row.getInt(0), sb -> new ArrayList<>()).add(row);
            }
            for (int sb : cursors) {
                List<Row> partition = byPartition.getOrDefault(sb, List.of());
                Optional<DocumentKey> stop = take(partition, out);
                if (stop.isPresent()) {
                    return CompletableFuture.completedFuture(batch(out, stop.get()));
                }
                if (partition.size() >= perPartition) { // cut short by the per-partition limit: read on after its last
                    return proceed(out, after(partition.get(partition.size() - 1)), queries);
                }
                long end = partitionLast(sb);
                DocumentKey afterPartition = end == -1L ? null : DocumentKey.bucketStart(end + 1);
                if (out.full()) {
                    return CompletableFuture.completedFuture(batch(out, afterPartition));
                }
            }
            return proceed(out, afterWindow, queries);
        }, executor);
    }

    /** The slice's next {@code window} partitions from cursor {@code first}: all of them, or the non-empty ones. */
    private List<Integer> cursors(long first, int window) {
        List<Integer> cursors = new ArrayList<>();
        long[] known = nonEmpty;
        if (known != null) {
            int index = Arrays.binarySearch(known, first);
            for (int i = index < 0 ? -index - 1 : index; i < known.length && cursors.size() < window; i++) {
                cursors.add((int) known[i]);
            }
            return cursors;
        }
        long count = 1L << options.distributionBits();
        for (long c = first; c < count && cursors.size() < window; c += spec.slice().slices()) {
            cursors.add((int) c);
        }
        return cursors;
    }

    /** Lists the table's non-empty partitions; if they are few, later windows read only this slice's of them. */
    private CompletableFuture<Void> listPartitions() {
        listed = true;
        BoundStatement statement = statements.readPartitionKeys().bind(SPARSE_PARTITIONS + 1);
        return execute(statement, SPARSE_PARTITIONS + 1).thenAccept(rows -> {
            if (rows.size() > SPARSE_PARTITIONS) {
                return;
            }
            int slices = spec.slice().slices();
            nonEmpty = rows.stream().mapToLong(row -> Integer.toUnsignedLong(row.getInt(0)))
                           .filter(c -> c % slices == spec.slice().sliceId()).sorted().toArray();
        });
    }

    private CompletableFuture<VisitBatch> proceed(Taken out, DocumentKey next,
                                                  int queries) {
        if (out.full()) {
            return CompletableFuture.completedFuture(batch(out, next));
        }
        return step(out, next, queries + 1);
    }

    /** Runs a read and collects all its rows, in order; its limits keep them to about {@code pageSize}. */
    private CompletableFuture<List<Row>> execute(BoundStatement statement, int pageSize) {
        BoundStatement read = statement.setPageSize(pageSize + 1)
                                       .setConsistencyLevel(options.consistency())
                                       .setIdempotent(true);
        return session.executeAsync(read).toCompletableFuture().thenCompose(this::allRows);
    }

    private CompletableFuture<List<Row>> allRows(AsyncResultSet result) {
        List<Row> rows = new ArrayList<>();
        result.currentPage().forEach(rows::add);
        if (!result.hasMorePages()) {
            return CompletableFuture.completedFuture(rows);
        }
        return result.fetchNextPage().toCompletableFuture().thenCompose(this::allRows).thenApply(more -> {
            rows.addAll(more);
            return rows;
        });
    }

    /**
     * About how many rows fit in what {@code out} may still take, from the bodies read so far: the driver fetches whole
     * rows, so reads of large documents ask for few. Unbounded before any body was read.
     */
    private int rowsFor(Taken out) {
        long perRow = rowBytes;
        if (perRow == 0) {
            return Integer.MAX_VALUE;
        }
        return (int) Math.min(Integer.MAX_VALUE, Math.max(1, (out.maxBytes - out.bytes) / perRow + 1));
    }

    /** The entries one {@link #read} collects, with their limits. */
    private static final class Taken {

        final List<VisitEntry> entries = new ArrayList<>();
        final int maxEntries;
        final long maxBytes;
        long bytes = 0;
        boolean stopped = false;  // at a row that does not fit
        long blockedBytes = 0;    // that row's size, if no entry was taken before it

        Taken(int maxEntries, long maxBytes) {
            this.maxEntries = maxEntries;
            this.maxBytes = maxBytes;
        }

        /** Whether no further entry may be taken. */
        boolean full() {
            return entries.size() >= maxEntries || stopped;
        }

    }

    /**
     * Accepts rows into {@code out} until it is full, or a row's body would take it past its bytes (the row is
     * fetched, but not decoded); returns the key of the first row left over, where the visit then stands, or empty if
     * every row was taken.
     */
    private Optional<DocumentKey> take(List<Row> rows, Taken out) {
        for (Row row : rows) {
            if (out.full()) {
                return Optional.of(keyOf(row));
            }
            StoredVersion version = StoredVersion.of(row, 3);
            long size = version.body() == null ? 0 : version.body().length;
            if (size > 0) {
                rowBytes = rowBytes == 0 ? size : (7 * rowBytes + size) / 8;
            }
            if (size > out.maxBytes - out.bytes) {
                out.stopped = true;
                out.blockedBytes = out.entries.isEmpty() ? size : 0;
                return Optional.of(keyOf(row));
            }
            Optional<VisitEntry> entry = accept(row, version, size);
            if (entry.isPresent()) {
                out.entries.add(entry.get());
                out.bytes += size;
            }
        }
        return Optional.empty();
    }

    /** The position just after {@code row}: the next possible id after its id, in the same bucket. */
    private static DocumentKey after(Row row) {
        return new DocumentKey(row.getLong(1), row.getString(2) + "\0");
    }

    private int cursor(long orderKey) {
        return (int) (orderKey >>> shift);
    }

    /** The largest order key in superbucket {@code sb}; no document has it, as its low bits are all ones. */
    private long partitionLast(int sb) {
        return (Integer.toUnsignedLong(sb) << shift) | ((1L << shift) - 1);
    }

    private static DocumentKey keyOf(Row row) {
        return new DocumentKey(row.getLong(1), row.getString(2));
    }

    private VisitBatch batch(Taken out, DocumentKey at) {
        if (at != null && plan.unitAt(at).isEmpty()) {
            at = null;
        }
        position = at;
        if (at == null) {
            return new VisitBatch(out.entries, Optional.empty(), true, 100);
        }
        return new VisitBatch(out.entries, Optional.of(plan.token(at)), at.isBucketStart(), plan.percentFinished(at),
                              out.blockedBytes);
    }

    private Optional<VisitEntry> accept(Row row, StoredVersion version, long size) {
        if (!inTimeRange(version.timestamp())) {
            return Optional.empty(); // before decoding anything
        }
        DocumentId id = DocumentId.of(row.getString(2));
        if (version.isLive()) {
            return live(codec.decode(id, version), version.timestamp(), size);
        }
        if (!spec.includeRemoves()) {
            return Optional.empty();
        }
        Optional<DocumentType> type = codec.type(id);
        return type.isEmpty() ? Optional.empty() : removed(id, type.get(), version.timestamp());
    }

}
