package io.sluice.content.embedded;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/** Writes batches of mutations to the store, atomically per batch, durably as its {@link Durability} says. */
interface StoreWriter extends AutoCloseable {

    /**
     * Writes {@code mutations} as one atomic batch; {@code timestamp} is the newest version timestamp they carry
     * (0 for none). The future completes once the batch is as durable as promised; it fails with
     * {@link StalledWrites.FullDiskStall} if the disk was too full to take it (nothing of it was written), with another
     * {@link org.rocksdb.RocksDBException} if writing or syncing the log failed (it may or may not survive a restart:
     * the log may hold it; and the writer is {@link #stopped()} from then on), with {@link WritesStopped} once the
     * writer is stopped (nothing of it was written), with {@link java.util.concurrent.RejectedExecutionException} if
     * too many batches wait already, and with {@link IllegalStateException} after {@link #close()}.
     */
    CompletableFuture<Void> write(List<Mutation> mutations, long timestamp);

    /** Groups written to the write-ahead log since the writer started: with {@link Durability#SYNC}, its fsyncs. */
    long logWrites();

    /** Why the writer writes nothing any more, if a write to the log failed; empty while it writes. */
    Optional<WritesStopped> stopped();

    /** Writes what was accepted before, then stops; blocks until done. */
    @Override
    void close();

}
