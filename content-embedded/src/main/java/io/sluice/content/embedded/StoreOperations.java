package io.sluice.content.embedded;

import io.sluice.document.Document;
import io.sluice.document.DocumentId;
import io.sluice.document.DocumentType;
import io.sluice.document.DocumentUpdate;
import io.sluice.document.FieldSet;
import io.sluice.content.Decision;
import io.sluice.content.OperationOptions;
import io.sluice.content.Outcome;
import io.sluice.content.Timestamps;
import io.sluice.content.Version;
import io.sluice.content.WriteRules;
import io.sluice.document.json.DocumentJsonReader;
import io.sluice.document.json.FieldsJson;
import io.sluice.document.select.ParentDocuments;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ReadOptions;
import org.rocksdb.ReadTier;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.Status;

import java.time.Clock;
import java.util.List;
import java.util.Optional;

/**
 * The read half of each single-document operation: reads the stored version of one document (only its header where
 * the {@link WriteRules} need no more), lets the rules decide, and says what to write. Callers run at most one
 * operation per document at a time, so reading and then writing is atomic per document.
 */
final class StoreOperations {

    private final RocksDB db;
    private final ColumnFamilyHandle globalDocuments;
    private final DocumentJsonReader reader;
    private final Clock clock;
    private final Timestamps timestamps;
    private final DocumentCache cache;
    private final ReadOptions reads = new ReadOptions();
    /** Reads that answer Incomplete instead of reading a file: what the memtables and the block cache hold. */
    private final ReadOptions cachedReads = new ReadOptions().setReadTier(ReadTier.BLOCK_CACHE_TIER);
    /** Parent readers for the two read options, made once: every get and update passes one to the rules. */
    private final ParentDocuments parents;
    private final ParentDocuments cachedParents;

    /**
     * Operations on {@code db} whose timestamps come from {@code clock}, each above {@code floor} (every timestamp
     * already stored, {@link TimestampCeiling}) and above the one before. Conditions read imported fields from the
     * parents in {@code globalDocuments}. Whole documents are read through {@code cache}, which the store's writer
     * keeps true.
     */
    StoreOperations(RocksDB db, ColumnFamilyHandle globalDocuments, DocumentJsonReader reader, Clock clock, long floor,
                    DocumentCache cache) {
        this.db = db;
        this.cache = cache;
        this.globalDocuments = globalDocuments;
        this.reader = reader;
        this.clock = clock;
        this.timestamps = Timestamps.monotonic(clock, floor);
        this.parents = parentsReading(this.reads);
        this.cachedParents = parentsReading(cachedReads);
    }

    /**
     * Whether an operation with {@code options} is written without reading the stored version: a put or remove
     * without condition. Its timestamp still exceeds the stored one's, as every timestamp this store hands out
     * exceeds every one it stored; its outcome does not know whether the document existed.
     */
    static boolean writesWithoutRead(OperationOptions options) {
        return !WriteRules.needsDocument(options);
    }

    /**
     * The read options for an operation: {@code cachedOnly} ones fail with status Incomplete rather than wait for a
     * file read ({@link #isIncomplete}), so a caller that must not block can retry on a store thread.
     */
    ReadOptions reads(boolean cachedOnly) {
        return cachedOnly ? cachedReads : reads;
    }

    /** Whether {@code e} says a read was refused rather than wait for a file read. */
    static boolean isIncomplete(RocksDBException e) {
        return e.getStatus() != null && e.getStatus().getCode() == Status.Code.Incomplete;
    }

    /** A put of {@code document}, whose fields the writer writes as {@code fields} when not null: they are stored. */
    Step put(RocksStore.Families families, StoreKey key, Document document, FieldsJson fields, OperationOptions options,
             ReadOptions reads) throws RocksDBException {
        if (writesWithoutRead(options)) {
            return step(families, key, null, WriteRules.putWithoutRead(document, options), document, fields);
        }
        byte[] previous = read(families, key, reads);
        Decision decision;
        try {
            decision = WriteRules.put(document, version(document.id(), previous), options, clock, parents(reads));
        } catch (ParentReadFailure e) {
            throw e.getCause();
        }
        return step(families, key, previous, decision, document, fields);
    }

    Step get(RocksStore.Families families, StoreKey key, DocumentId id, FieldSet fields, OperationOptions options,
             ReadOptions reads) throws RocksDBException {
        Version current = version(id, read(families, key, reads));
        try {
            return Step.done(WriteRules.get(id, current, fields, options, clock, parents(reads)));
        } catch (ParentReadFailure e) {
            throw e.getCause();
        }
    }

    Step update(RocksStore.Families families, StoreKey key, DocumentUpdate update, OperationOptions options,
                ReadOptions reads) throws RocksDBException {
        byte[] previous = read(families, key, reads);
        Decision decision;
        try {
            decision = WriteRules.update(update, version(update.id(), previous), options, clock, parents(reads));
        } catch (ParentReadFailure e) {
            throw e.getCause();
        }
        return step(families, key, previous, decision);
    }

    Step remove(RocksStore.Families families, StoreKey key, DocumentId id, OperationOptions options, ReadOptions reads)
            throws RocksDBException {
        if (writesWithoutRead(options)) {
            return step(families, key, null, WriteRules.removeWithoutRead(id, options));
        }
        byte[] previous = read(families, key, reads);
        Decision decision;
        try {
            decision = WriteRules.remove(id, version(id, previous), options, clock, parents(reads));
        } catch (ParentReadFailure e) {
            throw e.getCause();
        }
        return step(families, key, previous, decision);
    }

    /**
     * The parents a condition's imported fields are read from: global documents, read with {@code reads} (so a
     * cached-only read that would wait for a file fails as the operation's own read does, and the operation is
     * retried on a store thread).
     */
    ParentDocuments parents(ReadOptions reads) {
        return reads == this.reads ? parents : reads == cachedReads ? cachedParents : parentsReading(reads);
    }

    private ParentDocuments parentsReading(ReadOptions reads) {
        return id -> {
            byte[] value;
            try {
                value = read(globalDocuments, new StoreKey(id), reads);
            } catch (RocksDBException e) {
                throw new ParentReadFailure(e);
            }
            return value == null || !StoredValue.isLive(value) ? Optional.empty()
                                                               : Optional.of(StoredValue.decode(id, value, reader));
        };
    }

    /** A failed read of a parent document, carried out of a selection's evaluation. */
    static final class ParentReadFailure extends RuntimeException {

        private static final long serialVersionUID = 1L;

        ParentReadFailure(RocksDBException cause) {
            super(cause);
        }

        @Override
        public synchronized RocksDBException getCause() {
            return (RocksDBException) super.getCause();
        }

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
        byte[] stored = readHeader(families, key, reads);
        Mutation dropIndex = Mutation.delete(families.tombstones, indexKey);
        if (stored != null && !StoredValue.isLive(stored) && StoredValue.timestamp(stored) == timestamp) {
            return Step.delete(Outcome.written(timestamp, true),
                               List.of(Mutation.delete(families.documents, key), dropIndex));
        }
        return Step.delete(Outcome.missing(), List.of(dropIndex));
    }

    /**
     * What to write for {@code decision} over {@code previous} (a live version, a tombstone, or null: none, or not
     * read): the new version, plus the tombstone index's entry for a new tombstone, or minus the one of a replaced
     * tombstone. A put written without reading leaves the index entry of a tombstone it replaces; the sweep drops
     * such an entry when it finds the document's newest version is not that tombstone.
     */
    private Step step(RocksStore.Families families, StoreKey key, byte[] previous, Decision decision) {
        return step(families, key, previous, decision, null, null);
    }

    /**
     * {@link #step(RocksStore.Families, StoreKey, byte[], Decision)} for a put of {@code putDocument}, whose fields the
     * writer writes as {@code putFields} (null when not known): stored as they are if the decision writes that
     * document.
     */
    private Step step(RocksStore.Families families, StoreKey documentKey, byte[] previous, Decision decision,
                      Document putDocument, FieldsJson putFields) {
        if (decision.isAnswer()) {
            return Step.done(decision.answer());
        }
        byte[] key = documentKey.bytes();
        long timestamp = nextTimestamp(previous);
        if (decision.isTombstone()) {
            return Step.write(decision.written(timestamp),
                              List.of(Mutation.put(families.documents, key, StoredValue.tombstone(timestamp)),
                                      Mutation.put(families.tombstones, StoreKeys.tombstoneIndexKey(timestamp, key),
                                                   new byte[0])),
                              timestamp);
        }
        Document written = decision.document();
        FieldsJson fields = written == putDocument ? putFields : null;
        Mutation put = Mutation.put(families.documents, key, StoredValue.document(written, fields, timestamp));
        if (previous != null && !StoredValue.isLive(previous)) {
            byte[] indexKey = StoreKeys.tombstoneIndexKey(StoredValue.timestamp(previous), key);
            return Step.write(decision.written(timestamp), List.of(put, Mutation.delete(families.tombstones, indexKey)),
                              timestamp);
        }
        return Step.write(decision.written(timestamp), List.of(put), timestamp);
    }

    /** The next timestamp, above {@code previous}'s (a stored value or header; null for none) whatever the clock. */
    private long nextTimestamp(byte[] previous) {
        long timestamp = timestamps.next();
        if (previous != null && StoredValue.timestamp(previous) >= timestamp) {
            // Only if the floor was wrong, which a store of ours never has.
            timestamps.observe(StoredValue.timestamp(previous));
            timestamp = timestamps.next();
        }
        return timestamp;
    }

    private byte[] read(RocksStore.Families families, StoreKey key, ReadOptions reads) throws RocksDBException {
        return read(families.documents, key, reads);
    }

    /** The stored value of {@code key} in {@code documents}, from the cache if there, else from the store (cached). */
    private byte[] read(ColumnFamilyHandle documents, StoreKey key, ReadOptions reads) throws RocksDBException {
        byte[] id = key.idBytes();
        byte[] value = cache.get(documents, id);
        if (value == null) {
            long stamp = cache.stamp(id); // before the store's read: a write after it makes the offer be dropped
            value = db.get(documents, reads, key.bytes());
            cache.offer(documents, id, stamp, value);
        }
        return value;
    }

    /** The first {@link StoredValue#HEADER_BYTES} of the stored value (enough for its kind and timestamp), or null. */
    private byte[] readHeader(RocksStore.Families families, byte[] key, ReadOptions reads) throws RocksDBException {
        byte[] header = new byte[StoredValue.HEADER_BYTES];
        int size = db.get(families.documents, reads, key, header);
        return size == RocksDB.NOT_FOUND ? null : header;
    }

    /** {@code stored} (the whole value or its header; null for none) as the rules see it. */
    private Version version(DocumentId id, byte[] stored) {
        return stored == null ? null : new StoredVersion(id, stored, reader);
    }

    /** A stored value; its document is decoded only if the rules ask for it, which they do only of whole values. */
    private record StoredVersion(DocumentId id, byte[] value, DocumentJsonReader reader) implements Version {

        @Override
        public boolean isLive() {
            return StoredValue.isLive(value);
        }

        @Override
        public long timestamp() {
            return StoredValue.timestamp(value);
        }

        @Override
        public Document document() {
            return StoredValue.decode(id, value, reader);
        }

        @Override
        public Optional<FieldsJson> fieldsJson() {
            Optional<DocumentType> type = reader.types().find(id.documentType());
            return type.isEmpty() ? Optional.empty() : StoredValue.fieldsJson(value, type.get());
        }

    }

    void close() {
        reads.close();
        cachedReads.close();
    }

}
