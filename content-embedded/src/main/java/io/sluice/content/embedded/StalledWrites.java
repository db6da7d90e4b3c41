package io.sluice.content.embedded;

import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.Status;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

import java.io.File;

/**
 * Writes a batch without waiting inside RocksDB for a disk that is full. Each write first asks not to be slowed down
 * ({@code no_slowdown}); if RocksDB would stall it (its memtables cannot be flushed, or compaction falls behind), a
 * nearly full file system makes it a no-space failure at once (RocksDB would otherwise hold the store thread, and the
 * request, until its deadline: a flush that failed for lack of space is retried only once space is freed), and
 * otherwise the write is repeated waiting, which is RocksDB's ordinary back-pressure.
 */
final class StalledWrites {

    /** Below this much usable space, a stalled write is taken for a full disk. */
    static final long NEARLY_FULL_BYTES = 256L << 20;

    private StalledWrites() { }

    /**
     * A write refused before RocksDB took any of it: the store is stalled and the disk nearly full. Unlike a failure
     * of the log itself, it leaves nothing half-written behind and stops nothing: writes go on once there is room.
     */
    static final class FullDiskStall extends RocksDBException {

        private static final long serialVersionUID = 1L;

        FullDiskStall(long usable) {
            super("writes are stalled and the file system has only " + usable + " bytes free: no space left on device "
                  + "to flush to", new Status(Status.Code.IOError, Status.SubCode.NoSpace, null));
        }

    }

    /** The options of the first, non-waiting attempt of a write with {@code options}. */
    static WriteOptions noSlowdown(WriteOptions options) {
        return new WriteOptions().setSync(options.sync()).setDisableWAL(options.disableWAL()).setNoSlowdown(true);
    }

    /** Writes {@code batch}: at once with {@code fast}, else as described above with {@code waiting}. */
    static void write(RocksDB db, WriteOptions fast, WriteOptions waiting, WriteBatch batch) throws RocksDBException {
        try {
            db.write(fast, batch);
            return;
        } catch (RocksDBException e) {
            if (e.getStatus() == null || e.getStatus().getCode() != Status.Code.Incomplete) {
                throw e;
            }
        }
        long usable = new File(db.getName()).getUsableSpace();
        if (usable < NEARLY_FULL_BYTES) {
            throw new FullDiskStall(usable);
        }
        db.write(waiting, batch);
    }

}
