package io.sluice.content.embedded;

import io.sluice.document.Document;
import io.sluice.document.DocumentId;
import io.sluice.document.DocumentUpdate;
import io.sluice.document.FieldSet;
import io.sluice.content.OperationOptions;
import io.sluice.content.Outcome;
import io.sluice.document.json.DocumentJsonReader;
import io.sluice.document.select.DocumentSelection;
import io.sluice.document.select.DocumentSelectionContext;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The read-and-decide half of each single-document operation: reads the stored version of one document and decides,
 * by the {@link io.sluice.content.ContentBackend} contract, what to write and what to answer. Callers run at
 * most one operation per document at a time, so reading and then writing is atomic per document.
 */
final class StoreOperations {

    private final RocksDB db;
    private final DocumentJsonReader reader;
    private final Clock clock;
    private final ReadOptions reads = new ReadOptions();

    StoreOperations(RocksDB db, DocumentJsonReader reader, Clock clock) {
        this.db = db;
        this.reader = reader;
        this.clock = clock;
    }

    Step put(RocksStore.Families families, byte[] key, Document document, OperationOptions options)
            throws RocksDBException {
        Optional<DocumentSelection> condition = options.condition();
        byte[] previous = condition.isPresent() ? read(families, key) : readHeader(families, key);
        boolean found = isLive(previous);
        if (condition.isPresent()) {
            if (found && !holds(condition.get(), decode(document.id(), previous))) {
                return Step.done(conditionNotMet(condition.get(), document.id()));
            }
            if (!found && !options.createIfNonExistent()) {
                return Step.done(conditionOnMissing(condition.get(), document.id()));
            }
        }
        return write(families, key, previous, document);
    }

    Step get(RocksStore.Families families, byte[] key, DocumentId id, FieldSet fields, OperationOptions options)
            throws RocksDBException {
        byte[] stored = read(families, key);
        if (!isLive(stored)) {
            return Step.done(Outcome.notFound("Document '" + id + "' not found"));
        }
        Document document = decode(id, stored);
        Optional<DocumentSelection> condition = options.condition();
        if (condition.isPresent() && !holds(condition.get(), document)) {
            return Step.done(conditionNotMet(condition.get(), id));
        }
        return Step.done(Outcome.found(fields.filter(document), StoredValue.timestamp(stored)));
    }

    Step update(RocksStore.Families families, byte[] key, DocumentUpdate update, OperationOptions options)
            throws RocksDBException {
        DocumentId id = update.id();
        byte[] previous = read(families, key);
        Optional<DocumentSelection> condition = options.condition();
        if (isLive(previous)) {
            Document current = decode(id, previous);
            if (condition.isPresent() && !holds(condition.get(), current)) {
                return Step.done(conditionNotMet(condition.get(), id));
            }
            return write(families, key, previous, update.applyTo(current));
        }
        if (update.createIfNonExistent() || options.createIfNonExistent()) {
            return write(families, key, previous, update.applyTo(Document.of(update.type(), id)));
        }
        return Step.done(condition.isPresent() ? conditionOnMissing(condition.get(), id) : Outcome.missing());
    }

    Step remove(RocksStore.Families families, byte[] key, DocumentId id, OperationOptions options)
            throws RocksDBException {
        Optional<DocumentSelection> condition = options.condition();
        byte[] previous = condition.isPresent() ? read(families, key) : readHeader(families, key);
        boolean found = isLive(previous);
        if (condition.isPresent()) {
            if (!found) {
                return Step.done(conditionOnMissing(condition.get(), id));
            }
            if (!holds(condition.get(), decode(id, previous))) {
                return Step.done(conditionNotMet(condition.get(), id));
            }
        }
        if (!found) {
            return Step.done(Outcome.missing());
        }
        long timestamp = nextTimestamp(previous);
        return Step.write(Outcome.written(timestamp, true),
                          List.of(Mutation.put(families.documents, key, StoredValue.tombstone(timestamp)),
                                  Mutation.put(families.tombstones, StoreKeys.tombstoneIndexKey(timestamp, key),
                                               new byte[0])));
    }

    /**
     * Forgets the tombstone indexed by {@code indexKey} if it is still the document's newest version; drops the
     * index entry either way. Nothing to write if the entry is gone already.
     */
    Step expire(RocksStore.Families families, byte[] indexKey) throws RocksDBException {
        if (db.get(families.tombstones, reads, indexKey) == null) {
            return Step.done(Outcome.missing());
        }
        byte[] key = StoreKeys.tombstoneStoreKey(indexKey);
        long timestamp = StoreKeys.tombstoneTimestamp(indexKey);
        byte[] stored = readHeader(families, key);
        Mutation dropIndex = Mutation.delete(families.tombstones, indexKey);
        if (stored != null && !StoredValue.isLive(stored) && StoredValue.timestamp(stored) == timestamp) {
            return Step.write(Outcome.written(timestamp, true),
                              List.of(Mutation.delete(families.documents, key), dropIndex));
        }
        return Step.write(Outcome.missing(), List.of(dropIndex));
    }

    /** Writes {@code document} over {@code previous}, a live version, a tombstone or nothing (null). */
    private Step write(RocksStore.Families families, byte[] key, byte[] previous, Document document) {
        long timestamp = nextTimestamp(previous);
        Mutation put = Mutation.put(families.documents, key, StoredValue.document(document, timestamp));
        if (previous != null && !StoredValue.isLive(previous)) {
            byte[] indexKey = StoreKeys.tombstoneIndexKey(StoredValue.timestamp(previous), key);
            return Step.write(Outcome.written(timestamp, false),
                              List.of(put, Mutation.delete(families.tombstones, indexKey)));
        }
        return Step.write(Outcome.written(timestamp, previous != null), List.of(put));
    }

    private byte[] read(RocksStore.Families families, byte[] key) throws RocksDBException {
        return db.get(families.documents, reads, key);
    }

    /** The first {@link StoredValue#HEADER_BYTES} of the stored value (enough for its kind and timestamp), or null. */
    private byte[] readHeader(RocksStore.Families families, byte[] key) throws RocksDBException {
        byte[] header = new byte[StoredValue.HEADER_BYTES];
        int size = db.get(families.documents, reads, key, header);
        return size == RocksDB.NOT_FOUND ? null : header;
    }

    private static boolean isLive(byte[] stored) {
        return stored != null && StoredValue.isLive(stored);
    }

    private Document decode(DocumentId id, byte[] stored) {
        return StoredValue.decode(id, stored, reader);
    }

    private boolean holds(DocumentSelection condition, Document document) {
        return condition.matches(DocumentSelectionContext.of(document), clock);
    }

    private static Outcome conditionNotMet(DocumentSelection condition, DocumentId id) {
        return Outcome.conditionFailed("Condition '" + condition + "' is not met by document '" + id + "'");
    }

    private static Outcome conditionOnMissing(DocumentSelection condition, DocumentId id) {
        return Outcome.conditionFailed("Condition '" + condition + "' is not met: document '" + id
                                       + "' does not exist");
    }

    /** Now in microseconds, but always after the previous version's timestamp, also across restarts. */
    private long nextTimestamp(byte[] previous) {
        long now = nowMicros(clock);
        return previous == null ? now : Math.max(now, StoredValue.timestamp(previous) + 1);
    }

    static long nowMicros(Clock clock) {
        Instant now = clock.instant();
        return Math.addExact(Math.multiplyExact(now.getEpochSecond(), 1_000_000L), now.getNano() / 1_000);
    }

    void close() {
        reads.close();
    }

}
