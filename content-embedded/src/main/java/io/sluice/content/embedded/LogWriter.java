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
    private final WriteOptions withoutStall = new WriteOptions().setSync(false).setDisableWAL(false).setNoSlowdown(true);

    LogWriter(RocksDB db) {
        this.db = db;
    }

    @Override
    public CompletableFuture<Void> write(List<Mutation> mutations) {
        return write(mutations, options);
    }

    /** {@inheritDoc} Writes on the calling thread, unless RocksDB would stall it. */
    @Override
    public CompletableFuture<Void> writeWithoutStall(List<Mutation> mutations) {
        CompletableFuture<Void> written = write(mutations, withoutStall);
        if (written.isCompletedExceptionally()) {
            Throwable failure = written.handle((ignored, e) -> e).join();
            if (failure instanceof RocksDBException && StoreOperations.isIncomplete((RocksDBException) failure)) {
                return null;
            }
        }
        return written;
    }

    private CompletableFuture<Void> write(List<Mutation> mutations, WriteOptions writeOptions) {
        try (WriteBatch batch = new WriteBatch()) {
            for (Mutation mutation : mutations) {
                mutation.addTo(batch);
            }
            db.write(writeOptions, batch);
            return CompletableFuture.completedFuture(null);
        } catch (RocksDBException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    @Override
    public void close() {
        options.close();
        withoutStall.close();
    }

}
