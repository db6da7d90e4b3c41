package io.sluice.content.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import io.sluice.content.DocumentKey;
import io.sluice.content.InvalidProgressTokenException;
import io.sluice.content.KeyRange;
import io.sluice.content.ProgressToken;
import io.sluice.content.PulledVisit;
import io.sluice.content.VisitBatch;
import io.sluice.content.VisitEntry;
import io.sluice.content.VisitPlan;
import io.sluice.content.VisitSpec;
import io.sluice.document.DocumentId;
import io.sluice.document.DocumentType;
import io.sluice.document.select.ParentDocuments;

import java.nio.ByteBuffer;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import static io.sluice.content.cassandra.VisitStatements.BODY;
import static io.sluice.content.cassandra.VisitStatements.ID;
import static io.sluice.content.cassandra.VisitStatements.OK;
import static io.sluice.content.cassandra.VisitStatements.REMOVED;
import static io.sluice.content.cassandra.VisitStatements.TS;

/**
 * A visit of one table, pulled a batch at a time from paged reads whose next page is always on its way.
 *
 * <p><b>Without explicit buckets</b> the visit scans its slice's {@linkplain TokenRange token range} with one paged
 * query ({@code token(sb) > ? AND token(sb) <= ?}), so it reads only the partitions that exist, each once, from a
 * replica that owns it. Entries then come in token order of their partitions and, within a partition, in visiting
 * order ({@link DocumentKey}); buckets never span partitions, so every bucket's entries are contiguous and in order.
 * A position is the key of the next row to read, or the key just after the last row read: all partitions with a
 * smaller token, and the rows of its own partition ({@code sb}, the top distribution bits of its order key) before it,
 * are done. A visit resumed there reads the rest of that partition with a clustering-range query, then the partitions
 * that share its token and sort after it (Cassandra orders those by key; 64-bit Murmur3 tokens of at most 2^32 keys
 * practically never collide, but one query for the partitions at exactly that token makes the resumed visit exact
 * anyway), then scans on from the token after it.
 *
 * <p><b>With explicit buckets</b> (from the selection) the visit reads just their key ranges in their partitions, in
 * visiting order, and positions and progress are {@link VisitPlan}'s.
 */
final class CassandraVisit extends PulledVisit {

    /** Pages one {@link #next} waits for at most before returning what it has, so sparse matches cannot hog it. */
    static final int MAX_PAGES_PER_BATCH = 8;
    /** About the bytes of one page: two are in memory at a time (the one in hand and the next). */
    private static final long PAGE_BYTES = 1 << 20;
    private static final int FIRST_PAGE_ROWS = 100;
    private static final int MIN_PAGE_ROWS = 16;
    private static final int MAX_PAGE_ROWS = 5000;

    private final CqlSession session;
    private final VisitStatements statements;
    private final VisitPlan plan;
    private final CassandraOptions options;
    private final DocumentCodec codec;
    private final Executor executor;
    private final PartitionTokens tokens;
    private final TokenRange range; // null with explicit buckets
    private final int shift;
    private final AtomicInteger queries = new AtomicInteger();

    // Read and written by one read at a time, in the order the futures give them.
    private DocumentKey position;     // where the last batch ended, or the start; null only at a token range's start
    private boolean finished;
    private Iterator<RowPages> reads; // what is still to read, from position on; null when it must be set up again
    private RowPages current;
    private boolean hasLast;          // whether a row was read since position, and which
    private long lastOrderKey;
    private String lastId;
    private long boundaryKey;         // the order key of the row read last, or of position: a new one starts a bucket
    private boolean boundaryKnown;
    private final ParentDocuments parents;
    private volatile long rowBytes;   // a moving average of the bodies read, to size pages (read where pages are sent)

    /**
     * @throws InvalidProgressTokenException if the spec resumes a full scan at a position outside its slice's range
     */
    CassandraVisit(CqlSession session, VisitStatements statements, PartitionTokens tokens, VisitPlan plan,
                   VisitSpec spec, CassandraOptions options, DocumentCodec codec, Clock clock, Executor executor,
                   ParentDocuments parents, BooleanSupplier backendClosed) {
        super("Cassandra", spec, clock, backendClosed);
        this.parents = parents;
        this.session = session;
        this.statements = statements;
        this.tokens = tokens;
        this.plan = plan;
        this.options = options;
        this.codec = codec;
        this.executor = executor;
        this.shift = 64 - options.distributionBits();
        this.range = plan.hasExplicitBuckets() ? null : TokenRange.of(spec.slice());
        this.position = range == null ? plan.start() : spec.progress().map(ProgressToken::position).orElse(null);
        if (range != null && position != null && !range.contains(tokens.of(superbucket(position.orderKey())))) {
            throw new InvalidProgressTokenException("Continuation token position " + position + " is not in slice "
                                                    + spec.slice().sliceId() + " of " + spec.slice().slices()
                                                    + ", token range " + range);
        }
    }

    @Override
    protected ParentDocuments parents() {
        return parents;
    }

    /** Requests this visit has sent to Cassandra so far (queries, and pages of them). */
    int queries() {
        return queries.get();
    }

    @Override
    protected CompletableFuture<VisitBatch> read(int maxEntries, long maxBytes) {
        Taken out = new Taken(maxEntries, maxBytes);
        if (finished) {
            return CompletableFuture.completedFuture(finish(out));
        }
        CompletableFuture<Void> ready = reads == null ? setUp() : CompletableFuture.completedFuture(null);
        // A selection may read parents, which waits: its rows are read on the backend's threads, never the caller's
        // or a driver's.
        CompletableFuture<VisitBatch> drained = spec.selection().isPresent()
                                                ? ready.thenComposeAsync(ignored -> drain(out, 0), executor)
                                                : ready.thenCompose(ignored -> drain(out, 0));
        return drained.handle((batch, failure) -> {
            if (failure != null) {
                reads = null; // the next read starts again where the last batch ended
                throw Failures.visitFailure(failure, "a visit of bucket space '" + spec.bucketSpace().wireName() + "'");
            }
            return batch;
        });
    }

    /** Sets up the reads of everything from {@link #position} on. */
    private CompletableFuture<Void> setUp() {
        current = null;
        hasLast = false;
        boundaryKnown = position != null && !position.isBucketStart();
        boundaryKey = boundaryKnown ? position.orderKey() : 0;
        CompletableFuture<Iterator<RowPages>> next = range == null ? CompletableFuture.completedFuture(bucketReads())
                                                                   : scanReads();
        return next.thenAccept(planned -> reads = planned);
    }

    /**
     * The reads of a full scan from {@link #position}: see the class documentation. The rest of the position's
     * partition is requested together with the lookup of partitions sharing its token, so resuming costs one round
     * trip before the first rows.
     */
    private CompletableFuture<Iterator<RowPages>> scanReads() {
        if (position == null) {
            return CompletableFuture.completedFuture(List.of(scan(range.start())).iterator());
        }
        DocumentKey from = position;
        int sb = superbucket(from.orderKey());
        long token = tokens.of(sb);
        RowPages rest = partition(sb, from, partitionLast(sb));
        CompletableFuture<Void> restStarted = rest.nextPage();
        queries.incrementAndGet();
        BoundStatement keys = configure(statements.keysAt().bind(token, token)).setPageSize(1000);
        CompletableFuture<AsyncResultSet> sharing = session.executeAsync(keys).toCompletableFuture();
        return restStarted.thenCombine(sharing, (started, atToken) -> {
            List<RowPages> reads = new ArrayList<>();
            reads.add(rest);
            for (int other : after(sb, atToken)) {
                reads.add(partition(other, DocumentKey.bucketStart(partitionFirst(other)), partitionLast(other)));
            }
            if (token < range.end()) {
                reads.add(scan(token));
            }
            return reads.iterator();
        });
    }

    /** The partitions in {@code sharing} that Cassandra orders after {@code sb}: by key bytes, i.e. unsigned. */
    private static List<Integer> after(int sb, AsyncResultSet sharing) {
        List<Integer> after = new ArrayList<>();
        for (Row row : sharing.currentPage()) {
            if (Integer.compareUnsigned(row.getInt(0), sb) > 0) {
                after.add(row.getInt(0));
            }
        }
        after.sort(Integer::compareUnsigned);
        return after;
    }

    /** The reads of explicit buckets from {@link #position}: one per partition a bucket range touches, lazily. */
    private Iterator<RowPages> bucketReads() {
        return new Iterator<>() {
            private DocumentKey at = position; // null past the last order key

            @Override
            public boolean hasNext() {
                return at != null && plan.unitAt(at).isPresent();
            }

            @Override
            public RowPages next() {
                KeyRange unit = plan.unitAt(at).orElseThrow(NoSuchElementException::new);
                DocumentKey from = at.compareTo(unit.start()) < 0 ? unit.start() : at;
                int sb = superbucket(from.orderKey());
                long last = partitionLast(sb);
                long upper = Long.compareUnsigned(unit.last(), last) < 0 ? unit.last() : last;
                at = upper == -1L ? null : DocumentKey.bucketStart(upper + 1);
                return partition(sb, from, upper);
            }
        };
    }

    /** A scan of the partitions with tokens in {@code (after, range.end()]}, sent to a replica of its first token. */
    private RowPages scan(long after) {
        BoundStatement statement = configure(statements.scan().bind(after, range.end()))
                .setRoutingToken(tokens.routing(after + 1));
        return new RowPages(session, statement, this::pageRows, queries::incrementAndGet);
    }

    /** A read of partition {@code sb} from {@code from} up to order key {@code upper}. */
    private RowPages partition(int sb, DocumentKey from, long upper) {
        BoundStatement statement = configure(statements.partition().bind(sb, from.orderKey(), from.id(), upper));
        return new RowPages(session, statement, this::pageRows, queries::incrementAndGet);
    }

    private BoundStatement configure(BoundStatement statement) {
        return statement.setConsistencyLevel(options.visitConsistency()).setIdempotent(true);
    }

    /** Rows to ask for in a page: about {@link #PAGE_BYTES} of the bodies seen so far. */
    private int pageRows() {
        long perRow = rowBytes;
        if (perRow == 0) {
            return FIRST_PAGE_ROWS;
        }
        return (int) Math.max(MIN_PAGE_ROWS, Math.min(MAX_PAGE_ROWS, PAGE_BYTES / perRow));
    }

    /**
     * Takes rows into {@code out} until it is full, a row's body would take it past its bytes, the reads are done, or
     * it has waited for {@code MAX_PAGES_PER_BATCH} pages; {@code pages} it has waited for already.
     */
    private CompletableFuture<VisitBatch> drain(Taken out, int pages) {
        while (true) {
            if (isCancelled()) {
                return CompletableFuture.failedFuture(new CancellationException("The visit was cancelled"));
            }
            if (current != null && current.isDone()) {
                current = null;
            }
            if (current == null) {
                if (!reads.hasNext()) {
                    return CompletableFuture.completedFuture(finish(out));
                }
                current = reads.next();
            }
            Row row = current.peek();
            if (row == null) {
                boolean somewhere = hasLast || position != null; // a continuation needs a position to name
                if (out.full() || (pages >= MAX_PAGES_PER_BATCH && somewhere)) {
                    return CompletableFuture.completedFuture(hasLast ? batch(out, afterLast(), false)
                                                                     : batch(out, position, position.isBucketStart()));
                }
                return current.nextPage().thenComposeAsync(ignored -> drain(out, pages + 1), executor);
            }
            long orderKey = row.getLong(OK);
            String id = row.getString(ID);
            ByteBuffer body = row.getByteBuffer(BODY);
            long size = body == null ? 0 : body.remaining();
            if (out.full()) {
                return CompletableFuture.completedFuture(stopAt(out, orderKey, id));
            }
            if (size > 0) {
                rowBytes = rowBytes == 0 ? size : (7 * rowBytes + size) / 8;
            }
            if (size > out.maxBytes - out.bytes) {
                out.stopped = true;
                out.blockedBytes = out.entries.isEmpty() ? size : 0;
                return CompletableFuture.completedFuture(stopAt(out, orderKey, id));
            }
            current.take();
            accept(row.getLong(TS), row.getBoolean(REMOVED), id, body, size).ifPresent(entry -> {
                out.entries.add(entry);
                out.bytes += size;
            });
            hasLast = true;
            lastOrderKey = orderKey;
            lastId = id;
            boundaryKey = orderKey;
            boundaryKnown = true;
        }
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
     * The batch that stops before the row with {@code orderKey} and {@code id}: at the start of its bucket if the row
     * read before it (or the position before that) is in another bucket, so a continuation can say it is at a bucket
     * boundary; everything between is read and empty.
     */
    private VisitBatch stopAt(Taken out, long orderKey, String id) {
        boolean newBucket = !boundaryKnown || boundaryKey != orderKey;
        return batch(out, newBucket ? DocumentKey.bucketStart(orderKey) : new DocumentKey(orderKey, id), newBucket);
    }

    /** The position just after the last row read: the next possible id after its id, in the same bucket. */
    private DocumentKey afterLast() {
        return new DocumentKey(lastOrderKey, lastId + "\0");
    }

    private VisitBatch batch(Taken out, DocumentKey at, boolean atBucketBoundary) {
        position = at; // the reads in hand go on from here
        hasLast = false;
        double percent = range == null ? plan.percentFinished(at)
                                       : range.percentAt(tokens.of(superbucket(at.orderKey())));
        return new VisitBatch(out.entries, Optional.of(plan.token(at)), atBucketBoundary, Math.min(percent, 99.999),
                              out.blockedBytes);
    }

    private VisitBatch finish(Taken out) {
        finished = true;
        reads = null;
        current = null;
        return new VisitBatch(out.entries, Optional.empty(), true, 100);
    }

    private Optional<VisitEntry> accept(long timestamp, boolean removed, String idString, ByteBuffer body, long size) {
        if (!inTimeRange(timestamp)) {
            return Optional.empty(); // before decoding anything
        }
        DocumentId id = DocumentId.of(idString);
        if (!removed) {
            Optional<DocumentType> type = codec.type(id);
            if (type.isEmpty()) {
                return Optional.empty(); // its type left the application: it can be neither decoded nor selected
            }
            byte[] bytes = new byte[body.remaining()];
            body.duplicate().get(bytes);
            return live(id, type.get(), timestamp, size, codec.fieldsJson(type.get(), bytes).orElse(null),
                        () -> codec.decode(id, bytes));
        }
        if (!spec.includeRemoves()) {
            return Optional.empty();
        }
        Optional<DocumentType> type = codec.type(id);
        return type.isEmpty() ? Optional.empty() : removed(id, type.get(), timestamp);
    }

    private int superbucket(long orderKey) {
        return (int) (orderKey >>> shift);
    }

    /** The smallest order key in superbucket {@code sb}. */
    private long partitionFirst(int sb) {
        return Integer.toUnsignedLong(sb) << shift;
    }

    /** The largest order key in superbucket {@code sb}; no document has it, as its low bits are all ones. */
    private long partitionLast(int sb) {
        return partitionFirst(sb) | ((1L << shift) - 1);
    }

}
