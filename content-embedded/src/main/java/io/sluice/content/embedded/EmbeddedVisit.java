package io.sluice.content.embedded;

import io.sluice.content.DocumentKey;
import io.sluice.content.OrderedScanVisit;
import io.sluice.content.VisitEntry;
import io.sluice.content.VisitPlan;
import io.sluice.content.VisitSpec;
import io.sluice.document.DocumentId;
import io.sluice.document.DocumentType;
import io.sluice.document.DocumentTypes;
import io.sluice.document.json.DocumentJsonReader;
import io.sluice.document.select.ParentDocuments;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;

import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.function.BooleanSupplier;
import java.util.function.LongPredicate;

/**
 * A visit over one bucket space of the embedded store: the walk of {@link OrderedScanVisit} over a RocksDB iterator.
 * Each batch opens its own iterator (without filling the block cache) and closes it before the batch completes, so a
 * visit holds no native resources between batches and an abandoned visit leaks nothing.
 */
final class EmbeddedVisit extends OrderedScanVisit {

    private final RocksDB db;
    private final ColumnFamilyHandle documents;
    private final DocumentJsonReader reader;
    private final DocumentTypes types;
    private final LongPredicate tombstoneExpired;
    private final ParentDocuments parents;
    private volatile long keysRead;

    EmbeddedVisit(RocksDB db, ColumnFamilyHandle documents, VisitPlan plan, VisitSpec spec, Clock clock,
                  Executor executor, DocumentJsonReader reader, DocumentTypes types, LongPredicate tombstoneExpired,
                  ParentDocuments parents, BooleanSupplier backendClosed) {
        super("embedded", plan, spec, clock, executor, backendClosed);
        this.db = db;
        this.documents = documents;
        this.reader = reader;
        this.types = types;
        this.tombstoneExpired = tombstoneExpired;
        this.parents = parents;
    }

    /** Imported fields are read from the global documents; a failed read fails the batch. */
    @Override
    protected ParentDocuments parents() {
        return parents;
    }

    /** Keys the iterators have read so far, peeks past a unit included: how much of the store this visit touched. */
    long keysRead() {
        return keysRead;
    }

    @Override
    protected Cursor open() {
        ReadOptions options = new ReadOptions().setFillCache(false);
        RocksIterator iterator = db.newIterator(documents, options);
        return new Cursor() {
            private byte[] value; // of the entry the iterator stands at, once read

            @Override
            public void seek(DocumentKey key) {
                value = null;
                iterator.seek(StoreKeys.of(key));
            }

            @Override
            public boolean valid() {
                if (iterator.isValid()) {
                    keysRead++; // only the one running batch writes it
                    return true;
                }
                try {
                    iterator.status();
                } catch (RocksDBException e) {
                    throw new IllegalStateException("Reading the store failed: " + e.getMessage(), e);
                }
                return false;
            }

            @Override
            public DocumentKey key() {
                return StoreKeys.documentKey(iterator.key());
            }

            @Override
            public long orderKey() {
                return StoreKeys.orderKey(iterator.key());
            }

            @Override
            public long size() {
                return value().length;
            }

            @Override
            public Optional<VisitEntry> accept() {
                return EmbeddedVisit.this.accept(iterator.key(), value());
            }

            private byte[] value() {
                if (value == null) {
                    value = iterator.value();
                }
                return value;
            }

            @Override
            public void next() {
                value = null;
                iterator.next();
            }

            @Override
            public void close() {
                iterator.close();
                options.close();
            }
        };
    }

    private Optional<VisitEntry> accept(byte[] key, byte[] value) {
        long timestamp = StoredValue.timestamp(value);
        if (!inTimeRange(timestamp)) {
            return Optional.empty(); // before decoding anything
        }
        DocumentId id = DocumentId.of(StoreKeys.documentKey(key).id());
        if (StoredValue.isLive(value)) {
            Optional<DocumentType> type = types.find(id.documentType());
            if (type.isEmpty()) {
                return Optional.empty(); // its type left the application: it cannot be decoded, nor selected
            }
            return live(id, type.get(), timestamp, value.length, StoredValue.fieldsJson(value, type.get()).orElse(null),
                        () -> StoredValue.decode(id, value, reader));
        }
        if (!spec.includeRemoves() || tombstoneExpired.test(timestamp)) {
            return Optional.empty();
        }
        DocumentType type = types.find(id.documentType())
                                 .orElseGet(() -> DocumentType.builder(id.documentType()).build());
        return removed(id, type, timestamp);
    }

}
