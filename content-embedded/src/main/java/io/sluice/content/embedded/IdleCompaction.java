package io.sluice.content.embedded;

import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyMetaData;
import org.rocksdb.LevelMetaData;
import org.rocksdb.MutableColumnFamilyOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

import java.util.List;

/**
 * Compacts the L0 files a feed leaves behind once writes stop. While documents are written, a compaction waits for
 * {@link RocksStore#L0_COMPACTION_TRIGGER} L0 files, so a feed can end with up to one less than that: sorted runs that
 * every get and visit searches, stored with the upper levels' lighter compression, for as long as nothing more is
 * written. When {@link #check} finds no write since its previous call, it lowers the trigger to one file for each
 * documents' family whose L0 files are worth a compaction ({@link #worthCompacting}), and RocksDB compacts them into
 * the base level as it would any L0 compaction; the next call that sees writes again puts the trigger back. Not
 * thread-safe: one scheduled task calls it.
 */
final class IdleCompaction {

    /** RocksDB's default L0 trigger: a family holding this many L0 files would have been compacted by default. */
    static final int ROCKSDB_DEFAULT_TRIGGER = 4;
    /** L0 bytes, as a share of the family's, from which compacting fewer files than the default trigger is worth it. */
    static final double MIN_L0_SHARE = 0.1;

    private final RocksDB db;
    private final List<ColumnFamilyHandle> documents;
    private final boolean[] lowered;
    private long lastSequence;

    IdleCompaction(RocksDB db, List<ColumnFamilyHandle> documents) {
        this.db = db;
        this.documents = List.copyOf(documents);
        this.lowered = new boolean[this.documents.size()];
        this.lastSequence = db.getLatestSequenceNumber();
    }

    /**
     * Lowers the trigger of the families worth compacting if nothing was written since the previous call; restores
     * the lowered ones if something was.
     */
    void check() throws RocksDBException {
        long sequence = db.getLatestSequenceNumber();
        boolean idle = sequence == lastSequence;
        lastSequence = sequence;
        for (int i = 0; i < lowered.length; i++) {
            ColumnFamilyHandle family = documents.get(i);
            if (idle && !lowered[i] && worthCompacting(db.getColumnFamilyMetaData(family))) {
                setTrigger(family, 1);
                lowered[i] = true;
            } else if (!idle && lowered[i]) {
                setTrigger(family, RocksStore.L0_COMPACTION_TRIGGER);
                lowered[i] = false;
            }
        }
    }

    /** Whether the trigger of some family is lowered now (for tests and the log). */
    boolean lowered() {
        for (boolean family : lowered) {
            if (family) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether a family's L0 files are worth compacting while it is idle: as many as RocksDB's default trigger (its
     * default would have compacted them already), or at least a tenth of the family's bytes. Ids are spread over the
     * key space, so an L0 compaction rewrites the whole base level with the L0 files; at a tenth, that writes at most
     * ~11 bytes per L0 byte, the order of the leveled compaction's own fan-out. A writer that pauses after every
     * small burst therefore compacts no more often than with RocksDB's default, where compacting each burst's one
     * file at once into a large store would have rewritten that store up to four times as often.
     */
    static boolean worthCompacting(ColumnFamilyMetaData family) {
        for (LevelMetaData level : family.levels()) {
            if (level.level() == 0) {
                int files = level.files().size();
                return files >= ROCKSDB_DEFAULT_TRIGGER
                       || files > 0 && level.size() >= MIN_L0_SHARE * family.size();
            }
        }
        return false;
    }

    private void setTrigger(ColumnFamilyHandle family, int files) throws RocksDBException {
        db.setOptions(family, MutableColumnFamilyOptions.builder().setLevel0FileNumCompactionTrigger(files).build());
    }

}
