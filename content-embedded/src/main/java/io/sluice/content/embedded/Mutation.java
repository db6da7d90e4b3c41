package io.sluice.content.embedded;

import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;

/** One put or delete of a key in a column family; a list of them is written atomically as one batch. */
final class Mutation {

    private final ColumnFamilyHandle family;
    private final byte[] key;
    private final byte[] value; // null for a delete

    private Mutation(ColumnFamilyHandle family, byte[] key, byte[] value) {
        this.family = family;
        this.key = key;
        this.value = value;
    }

    static Mutation put(ColumnFamilyHandle family, byte[] key, byte[] value) {
        return new Mutation(family, key, value);
    }

    static Mutation delete(ColumnFamilyHandle family, byte[] key) {
        return new Mutation(family, key, null);
    }

    /** Tells {@code cache} this mutation was written ({@code known}), or may have been (a failed batch). */
    void writtenTo(DocumentCache cache, boolean known) {
        cache.written(family, key, value, known);
    }

    /** Adds this mutation to {@code batch}. */
    void addTo(WriteBatch batch) throws RocksDBException {
        if (value == null) {
            batch.delete(family, key);
        } else {
            batch.put(family, key, value);
        }
    }

}
