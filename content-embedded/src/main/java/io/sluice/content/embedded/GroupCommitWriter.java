package io.sluice.content.embedded;

import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * {@link Durability#SYNC}: one thread takes every batch that queued up while the previous fsync ran, writes them as
 * one RocksDB batch with {@code sync = true}, and completes all their futures: many concurrent writes share one
 * fsync. The queue is bounded; a full queue rejects at once instead of blocking the caller.
 */
final class GroupCommitWriter implements StoreWriter {

    /** Most batches written with one fsync; bounds the latency a huge backlog adds to the first of them. */
    static final int MAX_GROUP = 1024;

    private final RocksDB db;
    private final Executor completions;
    private final WriteOptions options = new WriteOptions().setSync(true).setDisableWAL(false);
    private final WriteOptions fast = StalledWrites.noSlowdown(options);
    private final BlockingQueue<Pending> queue;
    private final Thread thread;
    private volatile boolean closing;

    private static final class Pending {

        final List<Mutation> mutations;
        final CompletableFuture<Void> done = new CompletableFuture<>();

        Pending(List<Mutation> mutations) {
            this.mutations = mutations;
        }

    }

    /**
     * A writer whose commits complete their futures on {@code completions}, so whatever callers chain on them
     * does not delay the next fsync (inline if that executor refuses, e.g. once shut down).
     */
    GroupCommitWriter(RocksDB db, int capacity, String name, Executor completions) {
        this.db = db;
        this.completions = completions;
        this.queue = new ArrayBlockingQueue<>(capacity);
        this.thread = new Thread(this::run, name);
        this.thread.setDaemon(true);
        this.thread.start();
    }

    @Override
    public CompletableFuture<Void> write(List<Mutation> mutations) {
        if (closing) {
            return CompletableFuture.failedFuture(new IllegalStateException("The store writer is closed"));
        }
        Pending pending = new Pending(mutations);
        if (!queue.offer(pending)) {
            return CompletableFuture.failedFuture(new RejectedExecutionException(
                    queue.size() + " batches are already waiting for the next fsync"));
        }
        return pending.done;
    }

    private void run() {
        List<Pending> group = new ArrayList<>();
        while (true) {
            Pending first;
            try {
                first = closing ? queue.poll() : queue.poll(50, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                first = queue.poll(); // only close() interrupts: finish what is queued, then stop
            }
            if (first == null) {
                if (closing) {
                    return;
                }
                continue;
            }
            group.add(first);
            queue.drainTo(group, MAX_GROUP - 1);
            commit(group);
            group.clear();
        }
    }

    private void commit(List<Pending> group) {
        RocksDBException failure = null;
        try (WriteBatch batch = new WriteBatch()) {
            for (Pending pending : group) {
                for (Mutation mutation : pending.mutations) {
                    mutation.addTo(batch);
                }
            }
            StalledWrites.write(db, fast, options, batch);
        } catch (RocksDBException e) {
            failure = e;
        }
        RocksDBException outcome = failure;
        for (Pending pending : group) {
            Runnable completion = () -> {
                if (outcome == null) {
                    pending.done.complete(null);
                } else {
                    pending.done.completeExceptionally(outcome);
                }
            };
            try {
                completions.execute(completion);
            } catch (RejectedExecutionException e) {
                completion.run();
            }
        }
    }

    @Override
    public void close() {
        closing = true;
        thread.interrupt(); // wakes the idle poll; a running commit is native code and ignores it
        boolean interrupted = false;
        while (thread.isAlive()) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        for (Pending pending; (pending = queue.poll()) != null; ) {
            pending.done.completeExceptionally(new IllegalStateException("The store writer is closed"));
        }
        options.close();
        fast.close();
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

}
