package io.sluice.content.embedded;

import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.MutableColumnFamilyOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

import java.util.List;

/**
 * Compacts the L0 files a feed leaves behind once writes stop. While documents are written, a compaction waits for
 * {@link RocksStore#L0_COMPACTION_TRIGGER} L0 files, so a feed can end with up to one less than that: sorted runs that
 * every get and visit searches, stored with the upper levels' lighter compression, for as long as nothing more is
 * written. When {@link #check} finds no write since its previous call, it lowers the documents' trigger to one file, and
 * RocksDB compacts them into the base level as it would any L0 compaction; the next call that sees writes again puts
 * the trigger back. Not thread-safe: one scheduled task calls it.
 */
final class IdleCompaction {

    private final RocksDB db;
    private final List<ColumnFamilyHandle> documents;
    private long lastSequence;
    private boolean lowered = false;

    IdleCompaction(RocksDB db, List<ColumnFamilyHandle> documents) {
        this.db = db;
        this.documents = List.copyOf(documents);
        this.lastSequence = db.getLatestSequenceNumber();
    }

    /**
     * Lowers the trigger if nothing was written since the previous call and some documents' family holds L0 files;
     * restores it if something was written while it was lowered.
     */
    void check() throws RocksDBException {
        long sequence = db.getLatestSequenceNumber();
        boolean idle = sequence == lastSequence;
        lastSequence = sequence;
        if (idle && !lowered && holdsL0Files()) {
            setTrigger(1);
            lowered = true;
        } else if (!idle && lowered) {
            setTrigger(RocksStore.L0_COMPACTION_TRIGGER);
            lowered = false;
        }
    }

    /** Whether the trigger is lowered now (for tests and the log). */
    boolean lowered() {
        return lowered;
    }

    private boolean holdsL0Files() throws RocksDBException {
        for (ColumnFamilyHandle family : documents) {
            if (l0Files(db, family) > 0) {
                return true;
            }
        }
        return false;
    }

    /** The L0 files of {@code family} (a text property: {@code getLongProperty} does not know it). */
    static long l0Files(RocksDB db, ColumnFamilyHandle family) throws RocksDBException {
        return Long.parseLong(db.getProperty(family, "rocksdb.num-files-at-level0").trim());
    }

    private void setTrigger(int files) throws RocksDBException {
        MutableColumnFamilyOptions options = MutableColumnFamilyOptions.builder()
                                                                       .setLevel0FileNumCompactionTrigger(files)
                                                                       .build();
        for (ColumnFamilyHandle family : documents) {
            db.setOptions(family, options);
        }
    }

}
