package io.sluice.content.embedded;

import io.sluice.document.DocumentId;
import io.sluice.document.DocumentType;
import io.sluice.document.DocumentTypes;
import io.sluice.content.DocumentKey;
import io.sluice.content.KeyRange;
import io.sluice.content.PulledVisit;
import io.sluice.content.VisitBatch;
import io.sluice.content.VisitEntry;
import io.sluice.content.VisitPlan;
import io.sluice.content.VisitSpec;
import io.sluice.document.json.DocumentJsonReader;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.BooleanSupplier;
import java.util.function.LongPredicate;

/**
 * A visit over one bucket space of the embedded store. Each batch opens an iterator, seeks to the visit's position
 * and reads the plan's units (superbuckets of the slice, or the selection's buckets) as key ranges, jumping straight
 * to the next stored key when a unit is empty; nothing outside the planned ranges is read. The iterator is closed
 * before the batch completes, so a visit holds no native resources between batches and an abandoned visit leaks
 * nothing. There is no snapshot: writes between batches may or may not be seen.
 */
final class EmbeddedVisit extends PulledVisit {

    /** Entries and units one batch looks at before returning, so a sparse selection cannot hog a thread. */
    static final int MAX_SCANNED_PER_BATCH = 4096;

    private final RocksDB db;
    private final ColumnFamilyHandle documents;
    private final VisitPlan plan;
    private final Executor executor;
    private final DocumentJsonReader reader;
    private final DocumentTypes types;
    private final LongPredicate tombstoneExpired;
    private volatile DocumentKey position; // null once finished
    private volatile long keysRead;

    EmbeddedVisit(RocksDB db, ColumnFamilyHandle documents, VisitPlan plan, VisitSpec spec, Clock clock,
                  Executor executor, DocumentJsonReader reader, DocumentTypes types, LongPredicate tombstoneExpired,
                  BooleanSupplier backendClosed) {
        super("embedded", spec, clock, backendClosed);
        this.db = db;
        this.documents = documents;
        this.plan = plan;
        this.executor = executor;
        this.reader = reader;
        this.types = types;
        this.tombstoneExpired = tombstoneExpired;
        this.position = plan.start();
    }

    @Override
    protected CompletableFuture<VisitBatch> read(int maxEntries) {
        return readOn(executor, () -> {
            try {
                return scan(maxEntries);
            } catch (RocksDBException e) {
                throw new IllegalStateException("Reading the store failed: " + e.getMessage(), e);
            }
        });
    }

    /** Keys the iterators have read so far, peeks past a unit included: how much of the store this visit touched. */
    long keysRead() {
        return keysRead;
    }

    private VisitBatch scan(int maxEntries) throws RocksDBException {
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
        if (!inTimeRange(timestamp)) {
            return Optional.empty(); // before decoding anything
        }
        DocumentId id = DocumentId.of(StoreKeys.documentKey(key).id());
        if (StoredValue.isLive(value)) {
            if (!types.contains(id.documentType())) {
                return Optional.empty(); // its type left the application: it cannot be decoded, nor selected
            }
            return live(StoredValue.decode(id, value, reader), timestamp);
        }
        if (!spec.includeRemoves() || tombstoneExpired.test(timestamp)) {
            return Optional.empty();
        }
        DocumentType type = types.find(id.documentType())
                                 .orElseGet(() -> DocumentType.builder(id.documentType()).build());
        return removed(id, type, timestamp);
    }

}
