package io.sluice.content.embedded;

import io.sluice.document.Document;
import io.sluice.document.DocumentId;
import io.sluice.document.DocumentType;
import io.sluice.document.DocumentTypes;
import io.sluice.content.DocumentKey;
import io.sluice.content.KeyRange;
import io.sluice.content.Visit;
import io.sluice.content.VisitBatch;
import io.sluice.content.VisitEntry;
import io.sluice.content.VisitPlan;
import io.sluice.content.VisitSpec;
import io.sluice.document.json.DocumentJsonReader;
import io.sluice.document.select.DocumentSelection;
import io.sluice.document.select.DocumentSelectionContext;
import io.sluice.document.select.SelectionContext;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongPredicate;

/**
 * A visit over one bucket space of the embedded store. Each batch opens an iterator, seeks to the visit's position
 * and reads the plan's units (superbuckets of the slice, or the selection's buckets) as key ranges, jumping straight
 * to the next stored key when a unit is empty; nothing outside the planned ranges is read. The iterator is closed
 * before the batch completes, so a visit holds no native resources between batches and an abandoned visit leaks
 * nothing. There is no snapshot: writes between batches may or may not be seen.
 */
final class EmbeddedVisit implements Visit {

    /** Entries and units one batch looks at before returning, so a sparse selection cannot hog a thread. */
    static final int MAX_SCANNED_PER_BATCH = 4096;

    private final RocksDB db;
    private final ColumnFamilyHandle documents;
    private final VisitPlan plan;
    private final VisitSpec spec;
    private final Clock clock;
    private final Executor executor;
    private final DocumentJsonReader reader;
    private final DocumentTypes types;
    private final LongPredicate tombstoneExpired;
    private final AtomicBoolean busy = new AtomicBoolean();
    private volatile boolean cancelled;
    private volatile DocumentKey position; // null once finished
    private volatile long keysRead;

    EmbeddedVisit(RocksDB db, ColumnFamilyHandle documents, VisitPlan plan, VisitSpec spec, Clock clock,
                  Executor executor, DocumentJsonReader reader, DocumentTypes types, LongPredicate tombstoneExpired) {
        this.db = db;
        this.documents = documents;
        this.plan = plan;
        this.spec = spec;
        this.clock = clock;
        this.executor = executor;
        this.reader = reader;
        this.types = types;
        this.tombstoneExpired = tombstoneExpired;
        this.position = plan.start();
    }

    @Override
    public CompletableFuture<VisitBatch> next(int maxEntries) {
        if (maxEntries < 1) {
            throw new IllegalArgumentException("maxEntries must be positive, but was " + maxEntries);
        }
        if (cancelled) {
            return CompletableFuture.failedFuture(new CancellationException("The visit was cancelled"));
        }
        if (!busy.compareAndSet(false, true)) {
            return CompletableFuture.failedFuture(new IllegalStateException("Another next() of this visit is pending"));
        }
        CompletableFuture<VisitBatch> result = new CompletableFuture<>();
        try {
            executor.execute(() -> {
                try {
                    VisitBatch batch = cancelled ? null : read(maxEntries);
                    busy.set(false);
                    if (batch == null) {
                        result.completeExceptionally(new CancellationException("The visit was cancelled"));
                    } else {
                        result.complete(batch);
                    }
                } catch (RocksDBException | RuntimeException e) {
                    busy.set(false);
                    result.completeExceptionally(e instanceof RocksDBException
                                                 ? new IllegalStateException("Reading the store failed: "
                                                                             + e.getMessage(), e)
                                                 : e);
                }
            });
        } catch (RejectedExecutionException e) {
            busy.set(false);
            result.completeExceptionally(new IllegalStateException("The embedded content backend is closed", e));
        }
        return result;
    }

    /** Keys the iterators have read so far, peeks past a unit included: how much of the store this visit touched. */
    long keysRead() {
        return keysRead;
    }

    @Override
    public void cancel() {
        cancelled = true;
    }

    private VisitBatch read(int maxEntries) throws RocksDBException {
        List<VisitEntry> out = new ArrayList<>();
        DocumentKey at = position;
        int scanned = 0;
        try (ReadOptions options = new ReadOptions().setFillCache(false);
             RocksIterator iterator = db.newIterator(documents, options)) {
            while (at != null) {
                Optional<KeyRange> unit = plan.unitAt(at);
                if (unit.isEmpty()) {
                    at = null;
                    break;
                }
                KeyRange range = unit.get();
                if (at.compareTo(range.start()) < 0) {
                    at = range.start();
                }
                Long beyond = null;
                iterator.seek(StoreKeys.of(at));
                for (; iterator.isValid(); iterator.next()) {
                    keysRead++; // only the one running batch writes it
                    byte[] key = iterator.key();
                    long orderKey = StoreKeys.orderKey(key);
                    if (!range.contains(orderKey)) {
                        beyond = orderKey;
                        break;
                    }
                    if (out.size() >= maxEntries || scanned >= MAX_SCANNED_PER_BATCH) {
                        return batch(out, StoreKeys.documentKey(key), false);
                    }
                    scanned++;
                    accept(key, iterator.value()).ifPresent(out::add);
                }
                iterator.status();
                at = afterUnit(range, beyond);
                scanned++;
                if (at != null && (out.size() >= maxEntries || scanned >= MAX_SCANNED_PER_BATCH)) {
                    return batch(out, plan.unitAt(at).isPresent() ? at : null, true);
                }
            }
        }
        return batch(out, null, true);
    }

    /** Where to go once {@code range} is done: its end, or further to the next key's bucket; null if nothing is left. */
    private static DocumentKey afterUnit(KeyRange range, Long beyond) {
        Optional<DocumentKey> end = range.end();
        if (end.isEmpty() || beyond == null) {
            return null;
        }
        return Long.compareUnsigned(beyond, end.get().orderKey()) > 0 ? DocumentKey.bucketStart(beyond) : end.get();
    }

    private VisitBatch batch(List<VisitEntry> out, DocumentKey at, boolean atBoundary) {
        position = at;
        if (at == null) {
            return new VisitBatch(out, Optional.empty(), true, 100);
        }
        return new VisitBatch(out, Optional.of(plan.token(at)), atBoundary, plan.percentFinished(at));
    }

    private Optional<VisitEntry> accept(byte[] key, byte[] value) {
        long timestamp = StoredValue.timestamp(value);
        if (!spec.timeRange().contains(timestamp)) {
            return Optional.empty();
        }
        boolean live = StoredValue.isLive(value);
        if (!live && (!spec.includeRemoves() || tombstoneExpired.test(timestamp))) {
            return Optional.empty();
        }
        DocumentId id = DocumentId.of(StoreKeys.documentKey(key).id());
        if (live && !types.contains(id.documentType())) {
            return Optional.empty(); // its type left the application: it cannot be decoded, nor selected
        }
        if (live) {
            Document document = StoredValue.decode(id, value, reader);
            if (!matches(DocumentSelectionContext.of(document))) {
                return Optional.empty();
            }
            return Optional.of(VisitEntry.put(spec.fieldSet().filter(document), timestamp));
        }
        DocumentType type = types.find(id.documentType())
                                 .orElseGet(() -> DocumentType.builder(id.documentType()).build());
        if (!matches(DocumentSelectionContext.removed(id, type))) {
            return Optional.empty();
        }
        return Optional.of(VisitEntry.remove(id, timestamp));
    }

    private boolean matches(SelectionContext context) {
        Optional<DocumentSelection> selection = spec.selection();
        return selection.isEmpty() || selection.get().matches(context, clock);
    }

}
