package io.sluice.content.embedded;

import io.sluice.content.BucketSpace;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * A persisted bound on the version timestamps in the store, so a plain put or remove needs no read of the previous
 * version to get a larger timestamp, even after a restart with a clock that stepped back: the engine's clock starts
 * above {@link #floor()}. The {@link GroupWriter} writes a new ceiling, {@link #RESERVE_MICROS} ahead of the newest
 * timestamp, in the same atomic batch as the first write above the old one (about once per reserve), and
 * {@link #tighten} writes the exact newest one on a graceful close. After a crash, timestamps may therefore start up
 * to {@link #RESERVE_MICROS} ahead of the clock. A store written by a Sluice without this key is scanned once, at
 * open, for its newest timestamp.
 */
final class TimestampCeiling {

    private static final Logger log = LoggerFactory.getLogger(TimestampCeiling.class);
    static final byte[] KEY = "sluice.timestamp-ceiling".getBytes(StandardCharsets.UTF_8);
    /** How far ahead of the newest written timestamp a new ceiling is set: 10 s, one small write per 10 s of writes. */
    static final long RESERVE_MICROS = 10_000_000L;

    private final RocksDB db;
    private final long floor;
    private volatile long persisted;
    private volatile long newestWritten;

    /** A ceiling of {@code db} (its default column family holds it) whose stored versions are at most {@code floor}. */
    TimestampCeiling(RocksDB db, long floor) {
        this.db = db;
        this.floor = floor;
        this.persisted = floor;
    }

    /** Reads the ceiling of {@code store}, or finds the newest stored timestamp if it has none yet. */
    static TimestampCeiling open(RocksStore store) throws RocksDBException {
        Long stored = stored(store.db());
        if (stored != null) {
            return new TimestampCeiling(store.db(), stored);
        }
        long start = System.nanoTime();
        long newest = 0, versions = 0;
        try (ReadOptions options = new ReadOptions().setFillCache(false)) {
            for (BucketSpace space : BucketSpace.values()) {
                try (RocksIterator iterator = store.db().newIterator(store.families(space).documents, options)) {
                    for (iterator.seekToFirst(); iterator.isValid(); iterator.next()) {
                        newest = Math.max(newest, StoredValue.timestamp(iterator.value()));
                        versions++;
                    }
                    iterator.status();
                }
            }
        }
        if (versions > 0) {
            log.info("Found the newest of {} stored versions' timestamps in {} ms (once: the store now keeps it)",
                     versions, (System.nanoTime() - start) / 1_000_000);
        }
        return new TimestampCeiling(store.db(), newest);
    }

    /** Every timestamp in the store is at most this. */
    long floor() {
        return floor;
    }

    /**
     * The ceiling to persist with a batch whose newest timestamp is {@code newest}, or 0 if the persisted one covers
     * it. Called by the single writer thread.
     */
    long raiseFor(long newest) {
        if (newest > newestWritten) {
            newestWritten = newest;
        }
        return newest > persisted ? newest + RESERVE_MICROS : 0;
    }

    /** Adds the write of {@code ceiling} to {@code batch}. */
    void addTo(WriteBatch batch, long ceiling) throws RocksDBException {
        batch.put(KEY, bytes(ceiling));
    }

    /** {@code ceiling} was written. */
    void persisted(long ceiling) {
        persisted = ceiling;
    }

    /**
     * Writes the newest timestamp written since open as the ceiling, so a graceful restart starts at the clock; the
     * caller makes sure no write runs any more.
     */
    void tighten() throws RocksDBException {
        long newest = newestWritten;
        if (newest > floor && newest < persisted) {
            db.put(KEY, bytes(newest));
            persisted = newest;
        }
    }

    /** The ceiling stored in {@code db}, if any. */
    static Long stored(RocksDB db) throws RocksDBException {
        byte[] stored = db.get(KEY);
        return stored == null ? null : ByteBuffer.wrap(stored).getLong();
    }

    private static byte[] bytes(long value) {
        return ByteBuffer.allocate(Long.BYTES).putLong(value).array();
    }

}
