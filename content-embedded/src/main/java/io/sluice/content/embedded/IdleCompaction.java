package io.sluice.content.embedded;

import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyMetaData;
import org.rocksdb.FlushOptions;
import org.rocksdb.LevelMetaData;
import org.rocksdb.MutableColumnFamilyOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

import java.util.Arrays;
import java.util.List;

/**
 * Settles the documents a feed leaves behind once writes stop. While documents are written, a compaction waits for
 * {@link RocksStore#L0_COMPACTION_TRIGGER} L0 files, so a feed can end with up to one less than that: sorted runs that
 * every get and visit searches, stored with the upper levels' lighter compression, for as long as nothing more is
 * written. And a feed that grows a store past RocksDB's base level size ({@link RocksStore#MAX_BYTES_FOR_LEVEL_BASE})
 * leaves a large level above the bottom one that leveled compaction keeps: fed 1,000,000 new 1 KiB documents
 * (bench/store.sh, 2026-11-28), 175 MB in L5 over 272 MB in L6, so every get searched three sorted runs.
 * <p>
 * When {@link #check} has found no write for a number of calls in a row, it looks at each documents' family. If the
 * levels above the bottom one hold a large share of its bytes ({@link #worthDraining}), it drains them into the bottom
 * one in two steps, each one left to RocksDB's background compactions: it flushes the family's memtables and lowers its
 * L0 trigger to one file, so that the memtables and L0 files go into the base level; once they are there, it raises the
 * family's base level size above the family's size, so that the bottom level becomes the base level and RocksDB drains
 * the levels above it into it. The family ends as one sorted run, compressed as the bottom level is, and the bottom
 * level is rewritten once: the L0 files, spread over the whole key space, would have rewritten it once more had they
 * gone there directly. Otherwise, if its L0 files are worth a compaction ({@link #worthCompacting}), it lowers the L0
 * trigger alone, and RocksDB compacts them into the base level as it would any L0 compaction. The next call that sees
 * writes again puts both options back, and RocksDB goes on with its own compactions after the one it is running. Not
 * thread-safe: one scheduled task calls it.
 */
final class IdleCompaction {

    /** RocksDB's default L0 trigger: a family holding this many L0 files would have been compacted by default. */
    static final int ROCKSDB_DEFAULT_TRIGGER = 4;
    /** L0 bytes, as a share of the family's, from which compacting fewer files than the default trigger is worth it. */
    static final double MIN_L0_SHARE = 0.1;
    /** Bytes above the bottom level, as a share of the family's, from which draining them into it is worth it. */
    static final double MIN_UPPER_SHARE = 0.2;

    /** What an idle family was told to do. */
    private enum Settling {
        /** Not idle yet. */
        NONE,
        /**
         * Idle, with nothing worth doing. Not looked at again until writes resume: without writes, compactions only
         * move bytes down, and a family's metadata lists every one of its files.
         */
        NOTHING,
        /** Compact its L0 files into the base level. */
        L0,
        /** Flush its memtables and compact them and its L0 files into the base level, before a drain. */
        FLUSH,
        /** Compact every level into the bottom one. */
        DRAIN
    }

    private final RocksDB db;
    private final List<ColumnFamilyHandle> documents;
    private final Settling[] settling;
    private final int l0Trigger;
    private final long baseLevelBytes;
    private final int checksToIdle;
    private long lastSequence;
    private int checksWithoutWrites;

    /**
     * Watches the given families, whose L0 trigger and base level size are configured as given (the options it puts
     * back), and calls them idle when this many checks in a row saw no write since the previous one.
     */
    IdleCompaction(RocksDB db, List<ColumnFamilyHandle> documents, int l0Trigger, long baseLevelBytes,
                   int checksToIdle) {
        if (checksToIdle < 1) {
            throw new IllegalArgumentException("checksToIdle must be at least 1, not " + checksToIdle);
        }
        this.checksToIdle = checksToIdle;
        this.db = db;
        this.documents = List.copyOf(documents);
        this.settling = new Settling[this.documents.size()];
        Arrays.fill(settling, Settling.NONE);
        this.l0Trigger = l0Trigger;
        this.baseLevelBytes = baseLevelBytes;
        this.lastSequence = db.getLatestSequenceNumber();
    }

    /**
     * Starts settling the families worth it if nothing was written for the number of calls that makes them idle, and
     * takes a drain to its second step once the first is done; puts back the options of those it changed if
     * something was written since the previous call.
     */
    void check() throws RocksDBException {
        long sequence = db.getLatestSequenceNumber();
        checksWithoutWrites = sequence == lastSequence ? Math.min(checksWithoutWrites + 1, checksToIdle) : 0;
        lastSequence = sequence;
        boolean idle = checksWithoutWrites == checksToIdle;
        for (int i = 0; i < settling.length; i++) {
            ColumnFamilyHandle family = documents.get(i);
            if (!idle) {
                if (settling[i] != Settling.NONE && settling[i] != Settling.NOTHING) {
                    setOptions(family, l0Trigger, baseLevelBytes);
                }
                settling[i] = Settling.NONE;
            } else if (settling[i] == Settling.NONE) {
                ColumnFamilyMetaData meta = db.getColumnFamilyMetaData(family);
                if (worthDraining(meta)) {
                    // A flush writes no sequence number: the next check still sees the store idle.
                    try (FlushOptions flush = new FlushOptions().setWaitForFlush(false)) {
                        db.flush(flush, family);
                    }
                    setOptions(family, 1, baseLevelBytes);
                    settling[i] = Settling.FLUSH;
                } else if (worthCompacting(meta)) {
                    setOptions(family, 1, baseLevelBytes);
                    settling[i] = Settling.L0;
                } else {
                    settling[i] = Settling.NOTHING;
                }
            } else if (settling[i] == Settling.FLUSH && flushedAndCompacted(family)) {
                ColumnFamilyMetaData meta = db.getColumnFamilyMetaData(family);
                setOptions(family, 1, Math.max(baseLevelBytes, 4 * meta.size()));
                settling[i] = Settling.DRAIN;
            }
        }
    }

    /** Whether the family has no L0 file and no memtable waiting for a flush. */
    private boolean flushedAndCompacted(ColumnFamilyHandle family) throws RocksDBException {
        return db.getLongProperty(family, "rocksdb.num-immutable-mem-table") == 0
               && db.getColumnFamilyMetaData(family).levels().get(0).files().isEmpty();
    }

    /** Whether some family was told to drain its upper levels into the bottom one (for tests and the log). */
    boolean draining() {
        return Arrays.stream(settling).anyMatch(family -> family == Settling.FLUSH || family == Settling.DRAIN);
    }

    /** Whether the trigger of some family is lowered now (for tests and the log). */
    boolean lowered() {
        return Arrays.stream(settling).anyMatch(family -> family != Settling.NONE && family != Settling.NOTHING);
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

    /**
     * Whether a family's levels above the bottom one (L0 included) are worth draining into it while it is idle: at
     * least a fifth of its bytes. A leveled store that stopped growing keeps about a tenth above the bottom level (a
     * level is a tenth of the next one), so only a store that grew by at least a quarter of its bottom level since
     * the last drain is drained; a drain rewrites the family once, at most ~5 bytes per byte written since, bytes
     * that leveled compaction would have merged into the bottom level in time. Fed 1,000,000 new 1 KiB documents
     * (bench/store.sh, 2026-11-28, two runs each), the drain cost 9.2-9.7 us of compaction CPU per document fed
     * (the feed's own compactions 10.5), and left 414 stored bytes per document where three levels held 484; random
     * GETs of the store were 0.99 as fast as of a 100,000-document store, against 0.92 without it in the same hour
     * (0.81-0.87 in others). Draining the L0 files straight into the bottom level, in one step, had cost 18 us.
     */
    static boolean worthDraining(ColumnFamilyMetaData family) {
        long above = 0;
        long bottom = 0;
        for (LevelMetaData level : family.levels()) {
            if (level.size() > 0) {
                above += bottom;
                bottom = level.size();
            }
        }
        return above > 0 && above >= MIN_UPPER_SHARE * (above + bottom);
    }

    private void setOptions(ColumnFamilyHandle family, int l0Trigger, long baseLevelBytes) throws RocksDBException {
        db.setOptions(family, MutableColumnFamilyOptions.builder()
                                                        .setLevel0FileNumCompactionTrigger(l0Trigger)
                                                        .setMaxBytesForLevelBase(baseLevelBytes)
                                                        .build());
    }

}
