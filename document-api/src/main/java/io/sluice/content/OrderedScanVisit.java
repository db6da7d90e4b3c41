package io.sluice.content;

import io.sluice.document.Slice;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.BooleanSupplier;

/**
 * A visit of an engine that keeps a bucket space's entries in one structure sorted in visiting order (a sorted map,
 * an LSM tree): each batch walks the plan's units (superbuckets of the slice, or the selection's buckets) as key
 * ranges, jumping straight to the next stored key when a unit is empty, and reads nothing outside them. A batch looks
 * at no more than {@link #MAX_SCANNED_PER_BATCH} entries and units, and ends once it has taken
 * {@link #MAX_BATCH_MILLIS} on the clock, so neither a sparse nor a costly selection can hog a thread that other
 * operations wait for; it ends with a peek at the next key, so a batch that ends where a unit ends reports the bucket
 * boundary. Entries are weighed by the cursor's {@link Cursor#size()} before they are decoded, for the byte limit of
 * {@link Visit#next(int, long)}. There is no snapshot: writes between batches may or may not be seen. An engine supplies a {@link Cursor}.
 */
public abstract class OrderedScanVisit extends PulledVisit {

    /** Entries and units one batch looks at before returning. */
    public static final int MAX_SCANNED_PER_BATCH = 4096;

    /** Time after which a batch that has looked at an entry returns, as read on the visit's clock. */
    public static final long MAX_BATCH_MILLIS = 20;

    private final VisitPlan plan;
    private final Executor executor;
    private volatile DocumentKey position; // null once finished

    /** A position in the engine's sorted entries, opened for one batch and closed after it. */
    protected interface Cursor extends AutoCloseable {

        /** Moves to the first entry at or after {@code key}. */
        void seek(DocumentKey key);

        /** Whether the cursor stands at an entry; false past the last. */
        boolean valid();

        /** The visiting-order key of the entry the cursor stands at. */
        DocumentKey key();

        /** The bucket order key of the entry the cursor stands at (cheaper than {@link #key()} for some engines). */
        default long orderKey() {
            return key().orderKey();
        }

        /** The bytes the entry the cursor stands at takes in the store, known without decoding it. */
        long size();

        /** What the visit returns for the entry the cursor stands at, if anything ({@link #live}, {@link #removed}). */
        Optional<VisitEntry> accept();

        /** Moves to the next entry. */
        void next();

        @Override
        void close();

    }

    /**
     * @param engine       the engine's name in messages
     * @param plan         the units to walk, from the spec's progress on
     * @param executor     where batches are read (they block on the engine's storage)
     * @param engineClosed whether the engine is closed
     * @throws InvalidProgressTokenException if the spec resumes a slice from a token of round-robin slices
     */
    protected OrderedScanVisit(String engine, VisitPlan plan, VisitSpec spec, Clock clock, Executor executor,
                               BooleanSupplier engineClosed) {
        super(engine, spec, clock, engineClosed);
        Optional<ProgressToken> oldSplit = spec.progress().filter(ProgressToken::fromRoundRobinSlices);
        if (oldSplit.isPresent() && !plan.hasExplicitBuckets()) {
            Slice slice = oldSplit.get().slice();
            throw new InvalidProgressTokenException("Continuation token is for slice " + slice.sliceId() + " of "
                                                    + slice.slices() + " as an older version of Sluice split them "
                                                    + "(round-robin superbuckets); slices are now contiguous runs of "
                                                    + "superbuckets, so resuming from it would skip and repeat "
                                                    + "documents: start this slice again without the token");
        }
        this.plan = plan;
        this.executor = executor;
        this.position = plan.start();
    }

    /** A new cursor over the visited bucket space, for one batch. */
    protected abstract Cursor open();

    @Override
    protected final CompletableFuture<VisitBatch> read(int maxEntries, long maxBytes) {
        return readOn(executor, () -> scan(maxEntries, maxBytes));
    }

    private VisitBatch scan(int maxEntries, long maxBytes) {
        List<VisitEntry> out = new ArrayList<>();
        DocumentKey at = position;
        int scanned = 0;
        long bytes = 0;
        long started = clock.millis();
        try (Cursor cursor = open()) {
            boolean positioned = false; // whether the cursor stands at the first entry at or after `at` (or past the last)
            while (at != null) {
                Optional<KeyRange> unit = plan.unitAt(at);
                if (unit.isEmpty()) {
                    at = null;
                    break;
                }
                KeyRange range = unit.get();
                if (at.compareTo(range.start()) < 0) {
                    at = range.start(); // a bucket start
                    positioned = positioned && !(cursor.valid() && Long.compareUnsigned(cursor.orderKey(), at.orderKey()) < 0);
                }
                // The next unit of a run: the cursor already stands at the first entry past the last unit, which is at
                // or after `at`, and none lies between. A seek would read (and decompress) the same block again.
                if (!positioned) {
                    cursor.seek(at);
                    positioned = true;
                }
                Long beyond = null;
                for (; cursor.valid(); cursor.next()) {
                    long orderKey = cursor.orderKey();
                    if (!range.contains(orderKey)) {
                        beyond = orderKey;
                        break;
                    }
                    if (out.size() >= maxEntries || scanned >= MAX_SCANNED_PER_BATCH
                        || (scanned > 0 && clock.millis() - started >= MAX_BATCH_MILLIS)) {
                        return batch(out, cursor.key(), false, 0);
                    }
                    long size = cursor.size();
                    if (size > maxBytes - bytes) { // before decoding it: the batch ends here
                        return batch(out, cursor.key(), false, out.isEmpty() ? size : 0);
                    }
                    scanned++;
                    Optional<VisitEntry> entry = cursor.accept();
                    if (entry.isPresent()) {
                        out.add(entry.get());
                        bytes += size;
                    }
                }
                at = afterUnit(range, beyond);
                scanned++;
                if (at != null && (out.size() >= maxEntries || scanned >= MAX_SCANNED_PER_BATCH)) {
                    return batch(out, plan.unitAt(at).isPresent() ? at : null, true, 0);
                }
            }
        }
        return batch(out, null, true, 0);
    }

    /** Where to go once {@code range} is done: its end, or on to the next key's bucket; null if nothing is left. */
    private static DocumentKey afterUnit(KeyRange range, Long beyond) {
        Optional<DocumentKey> end = range.end();
        if (end.isEmpty() || beyond == null) {
            return null;
        }
        return Long.compareUnsigned(beyond, end.get().orderKey()) > 0 ? DocumentKey.bucketStart(beyond) : end.get();
    }

    private VisitBatch batch(List<VisitEntry> out, DocumentKey at, boolean atBoundary, long blockedBytes) {
        position = at;
        if (at == null) {
            return new VisitBatch(out, Optional.empty(), true, 100);
        }
        return new VisitBatch(out, Optional.of(plan.token(at)), atBoundary, plan.percentFinished(at), blockedBytes);
    }

}
