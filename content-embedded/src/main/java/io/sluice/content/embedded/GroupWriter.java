package io.sluice.content.embedded;

import io.sluice.content.CoalescedWrites;

import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * The store's only writer: one thread takes every batch that queued up while the previous write ran, writes them as
 * one RocksDB batch (with {@code sync = true} for {@link Durability#SYNC}, so many writes share one fsync), and
 * completes their futures on another executor, a few per task, so whatever callers chain on them does not delay the
 * next write. The queue is bounded; a full queue rejects at once instead of blocking the caller.
 *
 * <p>Why one thread: measured with bench/store.sh, each store thread writing its own batch cost about 10 µs more of
 * server CPU per put than this (RocksDB's writers wait for each other's log writes by spinning), and the batches
 * here are larger, so the log takes one write call per group instead of one per operation.
 *
 * <p>It also keeps the store's {@link TimestampCeiling}: every batch that carries a timestamp above the persisted
 * ceiling carries a new ceiling too, so after a restart (even a crash) the engine's clock starts above every
 * timestamp it wrote before, without reading anything per operation.
 *
 * <p>And it keeps the {@link DocumentCache} true: after each batch, before any of its futures completes, it tells the
 * cache what it wrote.
 *
 * <p>A batch RocksDB fails to write or fsync to its log fails every write in it, and stops the writer for good
 * ({@link WritesStopped}): from then on nothing reaches RocksDB and every write fails at once, so no write is ever
 * acknowledged on top of a log whose fsync failed, even if RocksDB resumes by itself. A write refused because the
 * disk is nearly full ({@link StalledWrites.FullDiskStall}) reached nothing and stops nothing.
 */
final class GroupWriter implements StoreWriter {

    private static final Logger log = LoggerFactory.getLogger(GroupWriter.class);

    /** Most batches written as one; bounds the latency a huge backlog adds to the first of them. */
    static final int MAX_GROUP = 1024;
    /** Most futures one completion task completes, so a large group is answered by several threads at once. */
    static final int COMPLETIONS_PER_TASK = 32;

    /** Writes one batch to the store; the seam where tests fail the log. */
    @FunctionalInterface
    interface Sink {
        void write(WriteBatch batch) throws RocksDBException;
    }

    private final String directory;
    private final Sink sink;
    private final Executor completions;
    private final TimestampCeiling ceiling;
    private final DocumentCache cache;
    private final WriteOptions options;
    private final WriteOptions fast;
    private final BlockingQueue<Pending> queue;
    private final Thread thread;
    private volatile boolean closing;
    /** Groups written, successfully or not; only the writer thread changes it. */
    private volatile long logWrites;
    /** Set, once, by the writer thread when the log fails; then nothing is written any more. */
    private volatile WritesStopped stopped;

    private static final class Pending {

        final List<Mutation> mutations;
        final long timestamp;
        final CompletableFuture<Void> done = new CompletableFuture<>();

        Pending(List<Mutation> mutations, long timestamp) {
            this.mutations = mutations;
            this.timestamp = timestamp;
        }

    }

    /**
     * A writer as durable as {@code durability} whose writes complete their futures on {@code completions} (inline
     * if that executor refuses, e.g. once shut down), keeping {@code ceiling} above every timestamp written and
     * {@code cache} true.
     */
    GroupWriter(RocksDB db, Durability durability, TimestampCeiling ceiling, DocumentCache cache, int capacity,
                String name, Executor completions) {
        this(db, durability, null, ceiling, cache, capacity, name, completions);
    }

    /** As above, writing through {@code sink} instead of to {@code db} when it is not null (for tests). */
    GroupWriter(RocksDB db, Durability durability, Sink sink, TimestampCeiling ceiling, DocumentCache cache,
                int capacity, String name, Executor completions) {
        this.directory = db.getName();
        this.completions = completions;
        this.ceiling = ceiling;
        this.cache = cache;
        this.options = new WriteOptions().setSync(durability == Durability.SYNC).setDisableWAL(false);
        this.fast = StalledWrites.noSlowdown(options);
        this.sink = sink != null ? sink : batch -> StalledWrites.write(db, fast, options, batch);
        this.queue = new ArrayBlockingQueue<>(capacity);
        this.thread = new Thread(this::run, name);
        this.thread.setDaemon(true);
        this.thread.start();
    }

    @Override
    public CompletableFuture<Void> write(List<Mutation> mutations, long timestamp) {
        if (closing) {
            return CompletableFuture.failedFuture(new IllegalStateException("The store writer is closed"));
        }
        WritesStopped refusal = stopped;
        if (refusal != null) {
            return CompletableFuture.failedFuture(refusal);
        }
        Pending pending = new Pending(mutations, timestamp);
        if (!queue.offer(pending)) {
            return CompletableFuture.failedFuture(new RejectedExecutionException(
                    queue.size() + " batches are already waiting to be written"));
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
            group = new ArrayList<>(); // the completion tasks hold the old list
        }
    }

    @Override
    public Optional<WritesStopped> stopped() {
        return Optional.ofNullable(stopped);
    }

    private void commit(List<Pending> group) {
        WritesStopped refusal = stopped;
        if (refusal != null) { // queued before the log failed: never written
            for (int from = 0; from < group.size(); from += COMPLETIONS_PER_TASK) {
                complete(group.subList(from, Math.min(group.size(), from + COMPLETIONS_PER_TASK)), refusal);
            }
            return;
        }
        RocksDBException failure = null;
        long newest = 0;
        try (WriteBatch batch = new WriteBatch()) {
            for (Pending pending : group) {
                newest = Math.max(newest, pending.timestamp);
                for (Mutation mutation : pending.mutations) {
                    mutation.addTo(batch);
                }
            }
            long raised = ceiling.raiseFor(newest);
            if (raised != 0) {
                ceiling.addTo(batch, raised);
            }
            logWrites++; // counted before the write: a failed fsync was still an fsync asked for
            try {
                sink.write(batch);
            } catch (RocksDBException e) {
                if (!(e instanceof StalledWrites.FullDiskStall)) {
                    stop(e);
                }
                throw e;
            }
            if (raised != 0) {
                ceiling.persisted(raised);
            }
        } catch (RocksDBException e) {
            failure = e;
        }
        if (cache.enabled()) {
            for (Pending pending : group) {
                for (Mutation mutation : pending.mutations) {
                    mutation.writtenTo(cache, failure == null);
                }
            }
        }
        for (int from = 0; from < group.size(); from += COMPLETIONS_PER_TASK) {
            complete(group.subList(from, Math.min(group.size(), from + COMPLETIONS_PER_TASK)), failure);
        }
    }

    /** Stops all writing after the log failed with {@code failure}; says so in one log line. */
    private void stop(RocksDBException failure) {
        stopped = new WritesStopped(failure);
        log.error("The write-ahead log of the embedded store at {} failed: {}. Writes are refused (503) and health is "
                  + "down until Sluice is restarted and recovers from the log", directory, failure.getMessage());
    }

    private void complete(List<Pending> pendings, Exception failure) {
        // The responses these completions write on one connection leave in one socket write (CoalescedWrites): on
        // h2c 4x256 puts, one write call per response was ~9% of the server's CPU.
        Runnable completion = () -> CoalescedWrites.run(() -> {
            for (Pending pending : pendings) {
                if (failure == null) {
                    pending.done.complete(null);
                } else {
                    pending.done.completeExceptionally(failure);
                }
            }
        });
        try {
            completions.execute(completion);
        } catch (RejectedExecutionException e) {
            completion.run();
        }
    }

    @Override
    public long logWrites() {
        return logWrites;
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
