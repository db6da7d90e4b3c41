package io.sluice.content.embedded;

import io.sluice.document.DocumentId;
import io.sluice.content.BucketSpace;
import io.sluice.content.OperationSequencer;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * One round of deleting expired tombstones. RocksDB's Java API cannot run a Java compaction filter, so expiry is a
 * sweep instead: tombstones are indexed by timestamp, so the expired ones are a prefix of the index, read without
 * touching live documents. Each is deleted through the document's sequence, so a put racing the sweep wins; the
 * deletes are ordinary RocksDB deletes whose space compaction reclaims.
 */
final class TombstoneSweep {

    private final RocksStore store;
    private final StoreOperations operations;
    private final OperationSequencer sequencer;
    private final Executor executor;
    private final StoreWriter writer;
    private final long expiredBefore;
    private final int limit;

    /** A sweep of tombstones written before {@code expiredBefore} (microseconds), at most {@code limit} of them. */
    TombstoneSweep(RocksStore store, StoreOperations operations, OperationSequencer sequencer, Executor executor,
                   StoreWriter writer, long expiredBefore, int limit) {
        this.store = store;
        this.operations = operations;
        this.sequencer = sequencer;
        this.executor = executor;
        this.writer = writer;
        this.expiredBefore = expiredBefore;
        this.limit = limit;
    }

    /** Starts the sweep; completes with the number of tombstones deleted, or fails if reading the index fails. */
    CompletableFuture<Integer> run() {
        List<CompletableFuture<Boolean>> deletions = new ArrayList<>();
        try {
            for (BucketSpace space : BucketSpace.values()) {
                for (byte[] indexKey : expired(store.families(space))) {
                    deletions.add(expire(space, indexKey));
                }
            }
        } catch (RocksDBException e) {
            return CompletableFuture.failedFuture(e);
        }
        return CompletableFuture.allOf(deletions.toArray(new CompletableFuture<?>[0]))
                                .thenApply(ignored -> (int) deletions.stream().filter(CompletableFuture::join).count());
    }

    private List<byte[]> expired(RocksStore.Families families) throws RocksDBException {
        List<byte[]> keys = new ArrayList<>();
        if (expiredBefore <= 0) {
            return keys;
        }
        try (ReadOptions options = new ReadOptions().setFillCache(false);
             RocksIterator iterator = store.db().newIterator(families.tombstones, options)) {
            for (iterator.seekToFirst(); iterator.isValid() && keys.size() < limit; iterator.next()) {
                byte[] key = iterator.key();
                if (StoreKeys.tombstoneTimestamp(key) >= expiredBefore) {
                    break;
                }
                keys.add(key);
            }
            iterator.status();
        }
        return keys;
    }

    /** Deletes one tombstone in its document's sequence; completes with whether it was still there to delete. */
    private CompletableFuture<Boolean> expire(BucketSpace space, byte[] indexKey) {
        DocumentId id = DocumentId.of(StoreKeys.documentKey(StoreKeys.tombstoneStoreKey(indexKey)).id());
        RocksStore.Families families = store.families(space);
        return sequencer.sequence(new SequenceKey(space, id), () -> {
            CompletableFuture<Boolean> deleted = new CompletableFuture<>();
            try {
                executor.execute(() -> {
                    try {
                        Step step = operations.expire(families, indexKey);
                        if (step.mutations.isEmpty()) {
                            deleted.complete(false);
                            return;
                        }
                        writer.write(step.mutations, step.timestamp).whenComplete((ignored, failure) -> {
                            if (failure == null) {
                                deleted.complete(step.outcome.found());
                            } else {
                                deleted.completeExceptionally(failure);
                            }
                        });
                    } catch (RocksDBException | RuntimeException e) {
                        deleted.completeExceptionally(e);
                    }
                });
            } catch (RejectedExecutionException e) {
                deleted.complete(false);
            }
            return deleted;
        });
    }

}
