package io.sluice.content.embedded;

import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * {@link Durability#LOG}: writes each batch on the calling thread into the write-ahead log without fsync. RocksDB
 * itself groups concurrent writers into one log write.
 */
final class LogWriter implements StoreWriter {

    private final RocksDB db;
    private final WriteOptions options = new WriteOptions().setSync(false).setDisableWAL(false);
    private final WriteOptions fast = StalledWrites.noSlowdown(options);

    LogWriter(RocksDB db) {
        this.db = db;
    }

    @Override
    public CompletableFuture<Void> write(List<Mutation> mutations) {
        try (WriteBatch batch = new WriteBatch()) {
            for (Mutation mutation : mutations) {
                mutation.addTo(batch);
            }
            StalledWrites.write(db, fast, options, batch);
            return CompletableFuture.completedFuture(null);
        } catch (RocksDBException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    @Override
    public void close() {
        options.close();
        fast.close();
    }

}
