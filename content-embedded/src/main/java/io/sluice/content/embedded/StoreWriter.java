package io.sluice.content.embedded;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/** Writes batches of mutations to the store, atomically per batch, durably as its {@link Durability} says. */
interface StoreWriter extends AutoCloseable {

    /**
     * Writes {@code mutations} as one atomic batch. The future completes once the batch is as durable as promised;
     * it fails with {@link org.rocksdb.RocksDBException} if RocksDB refused it (nothing of it was written), with
     * {@link java.util.concurrent.RejectedExecutionException} if too many batches wait already, and with
     * {@link IllegalStateException} after {@link #close()}.
     */
    CompletableFuture<Void> write(List<Mutation> mutations);

    /**
     * As {@link #write}, but never makes the caller wait for RocksDB to slow writes down (a write stall, while
     * compaction catches up): returns null instead, having written nothing, and the caller writes from a thread that
     * may wait. This default hands the batch off without waiting, as a writer whose own thread writes does.
     */
    default CompletableFuture<Void> writeWithoutStall(List<Mutation> mutations) {
        return write(mutations);
    }

    /** Writes what was accepted before, then stops; blocks until done. */
    @Override
    void close();

}
